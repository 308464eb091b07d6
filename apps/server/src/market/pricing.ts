/**
 * Option pricing for the simulated exchange: the adapter to @pfp/quant, so the rest of src/market does
 * not care where the models live. Signatures: (F, K, T, r, isCall, sigma) → price of an option on a future,
 * Black-76 for European style, Andersen–Lake–Offengenden (b = 0) for American style.
 */
export { americanPrice, black76Price } from '@pfp/quant';
