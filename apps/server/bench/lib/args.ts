/** A bench's `--name=value` number, or its default; a value that is not a number stops the bench. */
export function numberArg(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw new Error(`--${name} must be a number (got "${raw}")`);
  return value;
}
