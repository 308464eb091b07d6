export { black76Price, black76ImpliedVol } from './black76.js';
export { americanPrice, americanImpliedVol } from './american.js';
