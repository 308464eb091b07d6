/** SPEC §9: customer snapshot and orders poll. */
export const POLL_MS = 5000;
/** SPEC §7: a re-fetch happens 200 ms after submit or cancel. */
export const REFETCH_AFTER_ACTION_MS = 200;
/** The desk shows the latest orders of the contract; older ones are on the history page. */
export const DESK_ORDER_LIMIT = 50;
/** SPEC §2: mobile breakpoint of the customer desk. */
export const MOBILE_QUERY = '(max-width: 767.98px)';
