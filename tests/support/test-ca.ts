import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export type TestCertificates = {
  /** PEM file of the certificate authority (give it to NODE_EXTRA_CA_CERTS). */
  caFile: string;
  /** Key and certificate for an HTTPS server answering to `hostnames`. */
  server: { key: Buffer; cert: Buffer };
};

/** Why certificates cannot be made here (no openssl), or null. */
export function testCaUnavailable(): string | null {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return null;
  } catch {
    return "the openssl command is not installed";
  }
}

/**
 * A throwaway certificate authority and a server certificate it signed for
 * `hostnames` (subjectAltName), made with the openssl CLI in `dir`. Valid
 * for one day.
 */
export function makeTestCertificates(dir: string, hostnames: string[]): TestCertificates {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl("req", "-x509", ...ec, "-keyout", file("ca.key"), "-out", file("ca.crt"), "-days", "1", "-subj", "/CN=svc webhook test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  openssl("req", ...ec, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", `/CN=${hostnames[0]}`);
  fs.writeFileSync(
    file("server.ext"),
    [`subjectAltName=${hostnames.map((h) => `DNS:${h}`).join(",")}`, "basicConstraints=CA:FALSE", "extendedKeyUsage=serverAuth"].join("\n"),
  );
  openssl("x509", "-req", "-in", file("server.csr"), "-CA", file("ca.crt"), "-CAkey", file("ca.key"), "-CAcreateserial",
    "-out", file("server.crt"), "-days", "1", "-extfile", file("server.ext"));
  return { caFile: file("ca.crt"), server: { key: fs.readFileSync(file("server.key")), cert: fs.readFileSync(file("server.crt")) } };
}
