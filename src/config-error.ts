// The error of a bad setting, apart from config.ts so that modules config.ts reads settings through
// (src/domain/media/settings.ts) can throw it without an import cycle.

/** A configuration problem, reported as one line at start-up. */
export class ConfigError extends Error {}
