/** SPEC §2: mobile breakpoint of the customer desk (and its history). */
export const MOBILE_QUERY = '(max-width: 767.98px)';
/** Below this the desk's orders take two lines per cell (a tablet), above it one (a laptop). */
export const TABLET_QUERY = '(max-width: 1023.98px)';
