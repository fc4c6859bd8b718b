// The key that opens sealed configs (protocol.ts): given by the client in the environment at spawn,
// read once and removed from the environment so that nothing this process starts inherits it.
import { SEAL_KEY_ENV } from './protocol';

export const sealKey: string | undefined = process.env[SEAL_KEY_ENV] || undefined;
delete process.env[SEAL_KEY_ENV];
