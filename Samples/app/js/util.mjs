// A tiny module imported by main.mjs: proves that module imports resolve through the scheme.

/** The product name shown in the headline. */
export const productName = 'SchemeKit';

/** Adds numbers; the page expects 6 * 7. */
export function multiply(a, b) {
  return a * b;
}

/** The value main.mjs reports back to the page's self-check. */
export function signature() {
  return `${productName}:${multiply(6, 7)}`;
}
