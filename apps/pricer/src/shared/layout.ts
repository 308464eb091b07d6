/** SPEC §2: mobile breakpoint of the customer desk (and its history). */
export const MOBILE_QUERY = '(max-width: 767.98px)';
