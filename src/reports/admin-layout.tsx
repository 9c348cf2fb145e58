// The maintainers' pages' frame: the layout with the sign-out form, and the sign-in form. Every form
// posts to this service (CSP form-action 'self') and carries the CSRF field.
import type Html from "@kitajs/html";
import { esc, Layout, sync } from "../web/layout.tsx";

export function AdminLayout(props: Html.PropsWithChildren<{ title: string; csrf?: string }>): string {
  return Layout({
    title: props.title,
    noindex: true,
    children: sync(
      <div class="admin">
        {props.csrf ? (
          <form class="admin-signout" method="post" action="/admin/logout">
            <input type="hidden" name="csrf" value={props.csrf} />
            <button type="submit">Sign out</button>
          </form>
        ) : (
          ""
        )}
        {props.children as "safe"}
      </div>,
    ),
  });
}

export function LoginPage(p: { error?: string }): string {
  return AdminLayout({
    title: "Maintainers: sign in",
    children: sync(
      <section class="card admin-login">
        <h1>Bug reports: maintainers</h1>
        <p>
          Sign in with the service's <code>ADMIN_TOKEN</code>. The browser keeps a cookie for this page only (8 hours).
        </p>
        {p.error ? (
          <p class="note" role="alert">
            {esc(p.error)}
          </p>
        ) : (
          ""
        )}
        <form method="post" action="/admin/login">
          <label for="token">Admin token</label>
          <input id="token" name="token" type="password" autocomplete="current-password" required maxlength="256" />
          <button type="submit">Sign in</button>
        </form>
      </section>,
    ),
  });
}
