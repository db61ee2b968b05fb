// Runs before every test file: tests never read the developer's environment.
import { setDefaultTimeout } from "bun:test";

process.env.CAPA_LOG_LEVEL = "silent";

// Bun 1.4 ignores `timeout` under [test] in bunfig.toml (a test sleeping 6 s failed at 5 s), so
// the generous timeout for tests that start real servers and child processes is set here, where
// it covers every test and hook of every file. On this shared 2-core machine the webhook retry
// test, the read-pool tests and hooks that create several accounts (argon2) took 5-10 s.
setDefaultTimeout(30_000);
