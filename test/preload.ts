// Runs before every test file: tests never read the developer's environment.
process.env.CAPA_LOG_LEVEL = "silent";
