const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned JWT-shaped token with this payload (the client only decodes, the server verifies). */
export const jwt = (payload: Record<string, unknown>) =>
  `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(payload)}.sig`;

export { b64url };
