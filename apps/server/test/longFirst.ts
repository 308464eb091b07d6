import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suites that run for minutes of real time — the chaos CI form (5.5 minutes of load), the failover and restore
 * clusters, the kill -9, database-fault and shutdown suites, the money probe's floods — first, whatever the project:
 * with two workers they overlap the hundreds of short files instead of running alone at the end (docs/testing.md).
 * The rest in vitest's own order.
 */
const LONG = [
  /faults\/chaos\.pg\.test/,
  /faults\/failover\.pg\.test/,
  /storage\.db\.test/,
  /sigkill\.db\.test/,
  /faults\/restore\.pg\.test/,
  /faults\/database\.pg\.test/,
  /shutdown\.db\.test/,
  /moneyHoles\.api\.test/,
];
const rank = (spec: TestSpecification) => {
  const i = LONG.findIndex((re) => re.test(spec.moduleId));
  return i === -1 ? LONG.length : i;
};

export default class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    // A stable sort: the long ones in LONG's order, each project's file with them, then everything else as it was.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map((x) => x.spec);
  }
}
