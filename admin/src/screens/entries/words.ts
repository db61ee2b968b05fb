// How the entry list counts entries in words.

/** "1 entry", "3 entries", with thousands grouped. */
export const entries = (n: number) => (n === 1 ? "1 entry" : `${n.toLocaleString("en")} entries`);
