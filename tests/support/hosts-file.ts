import fs from "node:fs";

const HOSTS = "/etc/hosts";

/** Why /etc/hosts cannot be changed here, or null (tests that need names resolved by the system resolver skip with it). */
export function hostsFileUnwritable(): string | null {
  try {
    fs.appendFileSync(HOSTS, "");
    return null;
  } catch (err) {
    return `/etc/hosts is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); run as root`;
  }
}

/**
 * Adds `address name` lines to /etc/hosts, each tagged with `marker`;
 * returns a function that removes exactly those lines again. The file is
 * rewritten in place (it is often a bind mount that cannot be replaced).
 */
export function addHostsEntries(entries: Array<[address: string, name: string]>, marker: string): () => void {
  const current = fs.readFileSync(HOSTS, "utf8");
  const lines = entries.map(([address, name]) => `${address} ${name} # ${marker}`);
  fs.appendFileSync(HOSTS, `${current.endsWith("\n") || current === "" ? "" : "\n"}${lines.join("\n")}\n`);
  return () => {
    const kept = fs
      .readFileSync(HOSTS, "utf8")
      .split("\n")
      .filter((line) => !line.endsWith(`# ${marker}`));
    fs.writeFileSync(HOSTS, kept.join("\n"));
  };
}
