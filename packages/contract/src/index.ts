/**
 * The wire contract of the platform: zod schemas and inferred types of every request and answer
 * of SPEC §7 and ARCHITECTURE §4–5, and the shared rules. The server validates and serialises with
 * these schemas; the apps type their calls and check their forms with them.
 *
 * Types: `z.input` is what travels (timestamps as ISO strings), `z.output` what the server holds.
 */
export * from './primitives';
export * from './rules';
export * from './envelope';
export * from './view';
export * from './entities';
export * from './trader';
export * from './pricer';
export * from './market';
export * from './app';
export * from './ws';
export * from './routes';
export * from './fixing';
export * from './conditional';
export * from './controls';
export * from './paths';
export * from './margin';
export * from './marginValues';
export * from './lifecycle';
export * from './rollApplications';
export * from './notifications';
export * from './live';
export * from './customers';
export * from './pricing';
export * from './smile';
export * from './calendar';
export * from './agreement';
export * from './authorisedPricers';
export * from './statements';
export * from './staff';
