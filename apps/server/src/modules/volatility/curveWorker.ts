/**
 * A curve worker thread (started by curveWorkers.ts): holds the chains given to it and answers each
 * 'open' and 'update' with the curves that changed, so the main thread only fans them out; and fits the
 * smiles of a product's chains ('smile', docs/smile.md), so the main thread only posts chains and keeps fits.
 */
import { parentPort } from 'node:worker_threads';
import type { Quote } from '../../platform/quote';
import type { OptionSpec } from '../../market/types';
import { ChainCurves, type CurvePoint } from './chainCurves';
import { fitChains, type SmileJob, type SmileResult } from './smileFit';

export type ToWorker =
  | { type: 'open'; id: number; future: string; options: OptionSpec[]; rate: number; quotes: Quote[]; at: number }
  | { type: 'update'; id: number; quotes: Quote[]; at: number }
  | { type: 'close'; id: number }
  | { type: 'smile'; id: number; jobs: SmileJob[] };

export type FromWorker =
  | { type: 'curves'; id: number; at: number; changed: [string, CurvePoint[]][] }
  /** A smile fit's answer: the results, or why the fit threw (the worker carries on). */
  | { type: 'smile'; id: number; results: SmileResult[] }
  | { type: 'smile'; id: number; error: string };

const chains = new Map<number, ChainCurves>();
const port = parentPort!;

function smile(id: number, jobs: SmileJob[]): FromWorker {
  try {
    return { type: 'smile', id, results: fitChains(jobs) };
  } catch (e) {
    return { type: 'smile', id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'close') {
    chains.delete(msg.id);
    return;
  }
  if (msg.type === 'smile') {
    port.postMessage(smile(msg.id, msg.jobs));
    return;
  }
  let curves = chains.get(msg.id);
  if (msg.type === 'open') chains.set(msg.id, (curves = new ChainCurves(msg.future, msg.options, msg.rate)));
  let changed: [string, CurvePoint[]][] = [];
  if (curves) {
    curves.apply(msg.quotes, msg.at);
    changed = curves.update(msg.at);
    if (msg.type === 'open') changed = curves.all();
  }
  // Always an answer: the main thread sends a chain's next update only after it.
  const reply: FromWorker = { type: 'curves', id: msg.id, at: msg.at, changed };
  port.postMessage(reply);
});
