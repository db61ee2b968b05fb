// How passwords are hashed: argon2id at the cost of CAPA_PASSWORD_MEMORY_KIB and
// CAPA_PASSWORD_TIME_COST (Bun's defaults, 64 MiB and 2 passes, unless set; docs/configuration.md).
// A hash carries its own parameters, so a new cost applies to passwords set from then on and every
// stored hash still verifies. The test configuration sets the cheapest cost: a sign-in then takes
// about 1 ms instead of 200, and the suite signs in a few hundred times.
import { randomToken } from "../../infra/crypto.ts";

/** argon2id's memory (KiB) and passes. */
export interface PasswordCost {
  memoryKiB: number;
  time: number;
}

/** Bun's own argon2id defaults, which every hash made before the setting existed used. */
export const DEFAULT_PASSWORD_COST: PasswordCost = { memoryKiB: 65536, time: 2 };

// A hash at the default cost of a password nobody has, made once with Bun.password.hashSync, so a
// server at the default cost computes nothing for it.
const DEFAULT_DUMMY = "$argon2id$v=19$m=65536,t=2,p=1$Xftgozwy+ufwjhyEPoQa40m+tFgZpqtCA3TjG1C3qsg$Jt0JHhT9Q6IakLunLJE497q/vYCRHxcT8QXt4/KGtvU";

/** Bun.password's options for a cost. */
function passwordOptions(cost: PasswordCost) {
  return { algorithm: "argon2id" as const, memoryCost: cost.memoryKiB, timeCost: cost.time };
}

export class Passwords {
  private dummyHash: string | null;

  constructor(private readonly cost: PasswordCost) {
    const isDefault = cost.memoryKiB === DEFAULT_PASSWORD_COST.memoryKiB && cost.time === DEFAULT_PASSWORD_COST.time;
    this.dummyHash = isDefault ? DEFAULT_DUMMY : null;
  }

  hash(password: string): Promise<string> {
    return Bun.password.hash(password, passwordOptions(this.cost));
  }

  hashSync(password: string): string {
    return Bun.password.hashSync(password, passwordOptions(this.cost));
  }

  verify(password: string, hash: string): Promise<boolean> {
    return Bun.password.verify(password, hash);
  }

  /**
   * What sign-in verifies against for an unknown e-mail: a hash at the same cost as a real one, so
   * an unknown account is answered no faster than a known one (a cheaper hash would reveal which
   * accounts exist). Made on first use at a cost other than the default.
   */
  dummy(): string {
    this.dummyHash ??= this.hashSync(randomToken(20));
    return this.dummyHash;
  }
}
