// The owner's personal access tokens on their own statistics page: each with its label, what it
// may read, when it was made and last used and when it ends, and a button that revokes it.
import { esc } from "./layout.tsx";
import { formatTime } from "./format.ts";
import type { TokenInfo } from "../tokens/tokens.ts";
import { SCOPE_WORDS } from "../tokens/scopes.ts";

export type TokensView = {
  tokens: TokenInfo[];
  zone: string;
  /** Where a token's revoke form posts: `${action}/<id>/revoke`. */
  action: string;
  /** The form field bound to the page cookie (web/tokens-page.routes.tsx). */
  csrf: string;
  maxTokens: number;
};

export function TokenList(view: TokensView): JSX.Element {
  const when = (at: number | null, none: string) => (at === null ? none : esc(formatTime(at, view.zone)));
  return (
    <section aria-labelledby="tokens-h" class="tokens" id="tokens">
      <h2 id="tokens-h">Tokens for your own tools</h2>
      <p class="muted">
        A token lets a tool of yours (a Discord bot, a stream overlay, a spreadsheet) read your statistics. It never
        uploads or changes anything. A token is made with the mod's sign-in: <a href="/docs/tokens">how tokens work</a>.
        Revoke a token you no longer use, or one you may have shown someone: it stops working at once.
      </p>
      {view.tokens.length === 0 ? (
        <p class="muted">You have no tokens.</p>
      ) : (
        <ul class="token-list">
          {view.tokens.map((t) => (
            <li>
              <p class="token-label">
                <strong title={`token ${t.id}`}>{esc(t.label)}</strong>
              </p>
              <p class="token-scopes">Can read {esc(t.scopes.map((s) => SCOPE_WORDS[s]).join("; "))}.</p>
              <dl class="token-times">
                <dt>Made</dt>
                <dd>{when(t.createdAt, "")}</dd>
                <dt>Last used</dt>
                <dd>{when(t.lastUsedAt, "never")}</dd>
                <dt>Ends</dt>
                <dd>{when(t.expiresAt, "never")}</dd>
              </dl>
              <form method="post" action={`${view.action}/${t.id}/revoke`}>
                <input type="hidden" name="csrf" value={view.csrf} />
                <button type="submit">Revoke {esc(t.label)}</button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <p class="muted">
        {String(view.tokens.length)} of {String(view.maxTokens)} tokens.
      </p>
    </section>
  );
}
