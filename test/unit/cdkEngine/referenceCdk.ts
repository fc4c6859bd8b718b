// Where the reference CDK (../shared/tools/reference-cdk, built by .ci/run with setup.sh) is: REFCDK_DIR,
// else ../refcdk beside the repository. Tests that need it skip, saying how to get it, when it is absent.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = join(__dirname, '../../..');

export type ReferenceCdk = { dir: string; python: string; builder: string };

/** The reference's interpreter and builder entry point, or the reason the tests using it skip. */
export function findReferenceCdk(): ReferenceCdk | { skip: string } {
  const dir = resolve(ROOT, process.env.REFCDK_DIR ?? '../refcdk');
  const python = join(dir, 'venv/bin/python');
  if (!existsSync(python) || !existsSync(join(dir, 'builder.sh'))) {
    return {
      skip: `no reference CDK at ${dir}: run \`bash ../shared/tools/reference-cdk/setup.sh ${dir}\` (as .ci/run does) or set REFCDK_DIR`,
    };
  }
  return { dir, python, builder: join(dir, 'builder.sh') };
}
