import { describe, expect, it } from "vitest";
import { abuseKeyOfIp } from "@/lib/http/client-ip";
import { normalisedMailbox } from "@/lib/tenancy/schemas";

describe("abuseKeyOfIp: the key per-IP abuse limits count under", () => {
  it("keeps an IPv4 address, and counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(abuseKeyOfIp("203.0.113.7")).toBe("203.0.113.7");
    expect(abuseKeyOfIp("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(abuseKeyOfIp("::FFFF:cb00:7107")).toBe("203.0.113.7");
  });

  it("counts any other IPv6 address as its /64 network, however it is spelled", () => {
    const key = "2001:db8:1:2::/64";
    for (const ip of ["2001:db8:1:2::5", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:0DB8:0001:0002:0:0:0:1", "2001:db8:1:2::", "2001:DB8:1:2:ffff::1"]) {
      expect(abuseKeyOfIp(ip), ip).toBe(key);
    }
    expect(abuseKeyOfIp("2001:db8:1:3::5")).toBe("2001:db8:1:3::/64");
    expect(abuseKeyOfIp("2001:db8::1")).toBe("2001:db8::/64");
    expect(abuseKeyOfIp("fe80::1%eth0")).toBe("fe80::/64");
  });

  it("counts loopback ::1 as ::/64 and keeps a non-address (unknown peer) as is", () => {
    expect(abuseKeyOfIp("::1")).toBe("::/64");
    expect(abuseKeyOfIp("127.0.0.1")).toBe("127.0.0.1");
    expect(abuseKeyOfIp("unknown")).toBe("unknown");
  });
});

describe("normalisedMailbox: the mailbox an address delivers to (one welcome credit per mailbox)", () => {
  it("lower-cases and drops a +tag on every domain, keeping dots outside Gmail", () => {
    expect(normalisedMailbox("Ann.Lee+shop@Example.COM")).toBe("ann.lee@example.com");
    expect(normalisedMailbox("ann.lee@example.com")).toBe("ann.lee@example.com");
    expect(normalisedMailbox("ann+a+b@example.com")).toBe("ann@example.com");
  });

  it("drops dots for gmail.com and googlemail.com, and treats googlemail.com as gmail.com", () => {
    expect(normalisedMailbox("x+1@gmail.com")).toBe("x@gmail.com");
    expect(normalisedMailbox("x.+2@googlemail.com")).toBe("x@gmail.com");
    expect(normalisedMailbox("J.O.Doe+x@GoogleMail.com")).toBe("jodoe@gmail.com");
    expect(normalisedMailbox("jodoe@gmail.com.example")).toBe("jodoe@gmail.com.example");
  });

  it("tells different mailboxes apart", () => {
    expect(normalisedMailbox("x@gmail.com")).not.toBe(normalisedMailbox("y@gmail.com"));
    expect(normalisedMailbox("x@example.com")).not.toBe(normalisedMailbox("x@example.org"));
  });
});
