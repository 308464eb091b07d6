// Worker-thread entry of runLoadInWorker: runs the load described by workerData and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { runLoad, type LoadSpec } from './httpLoad';

const result = await runLoad(workerData as LoadSpec);
parentPort!.postMessage(result, [result.latencies.buffer as ArrayBuffer]);
