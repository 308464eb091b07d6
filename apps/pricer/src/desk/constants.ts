/** The desk shows the latest orders of the contract; older ones are on the history page. */
export const DESK_ORDER_LIMIT = 50;
