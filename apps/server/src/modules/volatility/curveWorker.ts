/**
 * A curve worker thread (started by curveWorkers.ts): holds the chains given to it and answers each
 * 'open' and 'update' with the curves that changed, so the main thread only fans them out.
 */
import { parentPort } from 'node:worker_threads';
import type { Quote } from '../../platform/quote';
import type { OptionSpec } from '../../market/types';
import { ChainCurves, type CurvePoint } from './chainCurves';

export type ToWorker =
  | { type: 'open'; id: number; future: string; options: OptionSpec[]; rate: number; quotes: Quote[]; at: number }
  | { type: 'update'; id: number; quotes: Quote[]; at: number }
  | { type: 'close'; id: number };

export interface FromWorker {
  id: number;
  at: number;
  changed: [string, CurvePoint[]][];
}

const chains = new Map<number, ChainCurves>();
const port = parentPort!;

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'close') {
    chains.delete(msg.id);
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
  const reply: FromWorker = { id: msg.id, at: msg.at, changed };
  port.postMessage(reply);
});
