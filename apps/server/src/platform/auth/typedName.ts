import { createHmac, randomBytes } from 'node:crypto';

/** A key of this process only: the tags of one name match within a run, and say nothing after it. */
const KEY = randomBytes(32);

/**
 * What a log line says of a name someone typed into a login form (issue 30): never the name in clear
 * — people type their password into the name field — but a short keyed tag, so the lines of one
 * attempt series still go together.
 */
export function typedNameTag(name: string): string {
  return createHmac('sha256', KEY).update(name.normalize('NFKC').toLowerCase()).digest('base64url').slice(0, 12);
}
