// A module the page imports dynamically.
export function answer() {
  return 6 * 7;
}
