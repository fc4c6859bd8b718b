// The Airbyte CDK engine behind the runtime CLI's ReadEngine interface (runtime/cli/readEngine.ts),
// and the default interpreter when none is chosen.
import type { ExternalReadEngine } from '../runtime';
import { DEFAULT_TEST_READ_LIMITS } from '../runtime';
import { cdkRecordRead, cdkReplayRead } from './cdkReplayRead';
import { cdkTestRead } from './cdkTestRead';
import { compareEngineReads, formatEngineComparison } from './engineComparison';

/** `python3` on the PATH (`python` on Windows, where python3 is often the Store stub). */
export const DEFAULT_PYTHON = process.platform === 'win32' ? 'python' : 'python3';

export const cdkReadEngine: ExternalReadEngine = {
  label: 'Airbyte CDK',
  read: (manifest, config, stream, limits, o) =>
    cdkTestRead(manifest, config, stream, limits, {
      python: o.python ?? DEFAULT_PYTHON,
      manifestPath: o.manifestPath,
      state: o.state,
      signal: o.signal,
      onConfigUpdate: o.onConfigUpdate,
    }),
  record: (manifest, config, stream, limits, o) =>
    cdkRecordRead(manifest, config, stream, limits, {
      python: o.python ?? DEFAULT_PYTHON,
      manifestPath: o.manifestPath,
      state: o.state,
      signal: o.signal,
      onConfigUpdate: o.onConfigUpdate,
    }),
  replay: (manifest, cassette, r, o) =>
    cdkReplayRead(manifest, cassette, r, { python: o.python ?? DEFAULT_PYTHON, manifestPath: o.manifestPath, signal: o.signal }),
  compare: (builtin, other, stream, limits) => {
    const c = compareEngineReads(builtin, other, { maxRecords: limits.maxRecords ?? DEFAULT_TEST_READ_LIMITS.maxRecords });
    return { identical: c.identical, text: formatEngineComparison(stream, c), value: c };
  },
};
