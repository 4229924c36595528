/** `.name`, or `["a name"]` for a key that is not an identifier: one step of a JSON path. */
export function member(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}
