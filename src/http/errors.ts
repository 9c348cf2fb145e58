// The stable error codes and their statuses (design.md section 4). A refused request answers
// { "error": { "code", "message", "path"? } }; codes never change meaning once shipped.
export const errorStatus = {
  invalid_body: 400,
  body_too_deep: 400,
  invalid_query: 400,
  invalid_uuid: 400,
  unauthorized: 401,
  not_joined: 401,
  csrf_failed: 403,
  token_not_accepted: 403,
  missing_scope: 403,
  challenge_invalid: 401,
  not_found: 404,
  conflict: 409,
  zone_change_too_soon: 409,
  body_too_slow: 408,
  export_in_progress: 409,
  import_other_account: 409,
  gzip_required: 413,
  body_too_large: 413,
  unsupported_media_type: 415,
  empty_upload: 422,
  categories_mismatch: 422,
  day_too_far_ahead: 422,
  denylisted_string: 422,
  unknown_namespace: 422,
  unsupported_schema: 422,
  unknown_zone: 422,
  unknown_category: 422,
  invalid_retention: 422,
  unknown_headline_key: 422,
  profile_mismatch: 422,
  unknown_cute_name: 422,
  unknown_mirror_section: 422,
  duplicate_row: 422,
  too_many_rows: 422,
  too_many_profiles: 422,
  total_out_of_range: 422,
  too_many_tokens: 422,
  invalid_expiry: 422,
  too_many_keys: 422,
  format_unsupported: 422,
  format_too_new: 422,
  rate_limited: 429,
  too_many_bodies: 429,
  // The client closed the connection mid-body (nginx's 499): nobody reads the answer; metrics do.
  body_aborted: 499,
  internal: 500,
  database_unavailable: 503,
  storage_full: 503,
  server_busy: 503,
  identity_unavailable: 503,
  no_upstream_key: 503,
  upstream_unavailable: 503,
  unknown_player: 404,
  /** GET /v1/pages/<name>: no findable page has that name (unknown and not findable answer alike). */
  page_not_found: 404,
  unknown_board: 404,
  unknown_board_window: 404,
  unknown_board_group: 422,
  /** A player group that does not exist, or that the asker may not see (the two answer alike). */
  unknown_group: 404,
  unknown_group_member: 404,
  not_group_owner: 403,
  group_full: 409,
  too_many_groups: 409,
  upstream_refused_uuid: 422,
  upstream_key_rejected: 503,
  upstream_rate_limited: 503,
  upstream_bad_image: 502,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly path?: string,
    readonly headers: Record<string, string> = {},
    /** Fields answered beside `error` (for example the current document on a 409). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

export type ErrorBody = { error: { code: string; message: string; path?: string; requestId?: string } };

export function errorBody(code: string, message: string, path?: string, requestId?: string): ErrorBody {
  return { error: { code, message, ...(path === undefined ? {} : { path }), ...(requestId ? { requestId } : {}) } };
}
