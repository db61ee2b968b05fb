// CAPA_SMTP_URL and CAPA_MAIL_FROM (docs/configuration.md): both or neither; each bad value is a
// one-line ConfigError that never repeats the password.
import { describe, expect, test } from "bun:test";
import { readMailSettings } from "../../src/domain/mail/settings.ts";
import { loadConfig } from "../../src/config.ts";

const FROM = "capa@example.com";

describe("readMailSettings", () => {
  test("neither set: no mail", () => {
    expect(readMailSettings({})).toBeNull();
    expect(readMailSettings({ CAPA_SMTP_URL: "", CAPA_MAIL_FROM: " " })).toBeNull();
    expect(loadConfig({}).mail).toBeNull();
  });

  test("smtps://: TLS from the start on port 465; user and password percent-decoded; the shown form hides the password", () => {
    expect(
      readMailSettings({ CAPA_SMTP_URL: "smtps://mailer%40example.com:p%40ss%3Aword@smtp.example.com", CAPA_MAIL_FROM: "Capa <capa@example.com>" }),
    ).toEqual({
      host: "smtp.example.com",
      port: 465,
      secure: true,
      requireTls: false,
      auth: { user: "mailer@example.com", pass: "p@ss:word" },
      from: "Capa <capa@example.com>",
      shown: "smtps://mailer%40example.com:***@smtp.example.com",
    });
  });

  test("smtp:// to another machine: port 587 and STARTTLS required; to loopback, no TLS required; no credentials is allowed", () => {
    expect(readMailSettings({ CAPA_SMTP_URL: "smtp://u:p@relay.example.com", CAPA_MAIL_FROM: FROM })).toMatchObject({
      port: 587,
      secure: false,
      requireTls: true,
    });
    for (const host of ["127.0.0.1", "localhost", "[::1]"]) {
      expect(readMailSettings({ CAPA_SMTP_URL: `smtp://${host}:2525`, CAPA_MAIL_FROM: FROM })).toMatchObject({
        host,
        port: 2525,
        requireTls: false,
        auth: null,
      });
    }
  });

  const bad: [string, Record<string, string>, string][] = [
    ["from without a server", { CAPA_MAIL_FROM: FROM }, "CAPA_MAIL_FROM is set but CAPA_SMTP_URL is not; set both to send mail, or neither"],
    [
      "a server without from",
      { CAPA_SMTP_URL: "smtps://u:p@smtp.example.com" },
      "CAPA_MAIL_FROM must be set with CAPA_SMTP_URL: the address mail comes from, as in Capa <capa@example.com>",
    ],
    [
      "not a URL (its password is not repeated)",
      { CAPA_SMTP_URL: "smtps://u:hunter2@", CAPA_MAIL_FROM: FROM },
      "CAPA_SMTP_URL is not a URL; write it as smtps://user:password@smtp.example.com (percent-encode reserved characters in the user and password)",
    ],
    [
      "another scheme",
      { CAPA_SMTP_URL: "https://u:hunter2@smtp.example.com", CAPA_MAIL_FROM: FROM },
      'CAPA_SMTP_URL must start with smtp:// or smtps://, got "https://"',
    ],
    [
      "a user without a password",
      { CAPA_SMTP_URL: "smtps://u@smtp.example.com", CAPA_MAIL_FROM: FROM },
      "CAPA_SMTP_URL must hold both a user and a password (smtps://user:password@host), or neither",
    ],
    [
      "a path",
      { CAPA_SMTP_URL: "smtps://u:p@smtp.example.com/x?tls=off", CAPA_MAIL_FROM: FROM },
      "CAPA_SMTP_URL takes no path, query or fragment: only smtp(s)://user:password@host:port",
    ],
    [
      "a bad port",
      { CAPA_SMTP_URL: "smtps://u:hunter2@smtp.example.com:99999", CAPA_MAIL_FROM: FROM },
      "CAPA_SMTP_URL is not a URL; write it as smtps://user:password@smtp.example.com (percent-encode reserved characters in the user and password)",
    ],
    [
      "bad percent-encoding",
      { CAPA_SMTP_URL: "smtps://u:%zz@smtp.example.com", CAPA_MAIL_FROM: FROM },
      "CAPA_SMTP_URL: the password is not valid percent-encoding; write it as in smtps://user:password@smtp.example.com (percent-encode reserved characters in the user and password)",
    ],
    [
      "from not an address",
      { CAPA_SMTP_URL: "smtps://u:p@smtp.example.com", CAPA_MAIL_FROM: "capa" },
      'CAPA_MAIL_FROM must be an e-mail address, or a name and an address as in Capa <capa@example.com>; got "capa"',
    ],
    [
      "from with a line break",
      { CAPA_SMTP_URL: "smtps://u:p@smtp.example.com", CAPA_MAIL_FROM: "Capa\r\nBcc: x@y.z <capa@example.com>" },
      'CAPA_MAIL_FROM must be an e-mail address, or a name and an address as in Capa <capa@example.com>; got "Capa\\r\\nBcc: x@y.z <capa@example.com>"',
    ],
  ];
  for (const [name, env, says] of bad) {
    test(`refused: ${name}`, () => {
      expect(() => loadConfig(env)).toThrow(says);
      expect(says).not.toContain("hunter2");
    });
  }
});
