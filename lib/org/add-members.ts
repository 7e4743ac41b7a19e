import type { Member } from "@/generated/prisma/client";
import type { RosterCaller } from "./caller";
import { z } from "zod";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { enqueueJobs, jobQueue, type NewJob } from "@/lib/jobs/queue";
import { EmailSchema } from "@/lib/tenancy/schemas";
import { assertSeatsPayable } from "./billing/seats";
import { ensureSubscription } from "./billing/subscription";
import { invitation, invitationEmailJob, mailAvailable } from "./invitations";
import { planInvite, type InviteMethod, type InvitePlan } from "./invite-method";
import { presentMember } from "./list-members";
import { newMemberId, reactivation } from "./member-lifecycle";
import { MEMBER_ROLES } from "./member-vocabulary";

export { MEMBER_ROLES };

/**
 * POST /api/sdk/members (spec 4.6, 3.2): adds 1 to 500 people to the roster
 * in one transaction. An email already on the roster (or twice in the
 * request) is skipped as `duplicate`; a deactivated one is reactivated
 * (`reactivated: true`). Each new or reactivated member who is not active
 * gets an invitation (lib/org/invite-method.ts); emails are queued as jobs
 * in the same transaction and sent by the background worker, never inside
 * the request.
 */
export const MAX_MEMBERS_PER_ADD = 500;

const Name = z.string().trim().max(100, "At most 100 characters");
const MemberInput = z
  .object({
    email: EmailSchema,
    first_name: Name.optional(),
    last_name: Name.optional(),
    firstName: Name.optional(),
    lastName: Name.optional(),
    role: z.enum(MEMBER_ROLES, { message: `One of ${MEMBER_ROLES.join(", ")}` }).optional(),
  })
  .strict();

export const AddMembersBody = z
  .object({
    members: z
      .array(MemberInput, { message: "An array of members, each with an email" })
      .min(1, "Give 1 to 500 members")
      .max(MAX_MEMBERS_PER_ADD, `At most ${MAX_MEMBERS_PER_ADD} members per call`),
    notify: z.boolean().default(true),
    invite: z.enum(["auto", "email", "face"]).default("auto"),
  })
  .strict();
export type AddMembersInput = z.infer<typeof AddMembersBody>;

/** `role` absent: `member` for a new row; a reactivated member keeps its role. */
type Wanted = { email: string; firstName: string; lastName: string; role: string | undefined };
type Created = ReturnType<typeof presentMember> & { activation_link: string | null; invite_method: InviteMethod; reactivated?: true };

/** Splits the request into distinct emails (first occurrence wins) and in-request duplicates. */
function distinct(members: AddMembersInput["members"]): { wanted: Wanted[]; repeated: string[] } {
  const seen = new Set<string>();
  const wanted: Wanted[] = [];
  const repeated: string[] = [];
  for (const m of members) {
    if (seen.has(m.email)) {
      repeated.push(m.email);
      continue;
    }
    seen.add(m.email);
    wanted.push({ email: m.email, firstName: m.first_name ?? m.firstName ?? "", lastName: m.last_name ?? m.lastName ?? "", role: m.role });
  }
  return { wanted, repeated };
}

export type AddedMembers = { created: Created[]; skipped: Array<{ email: string; reason: "duplicate" }>; notified: boolean };

async function insertNew(tx: Tx, organizationId: string, wanted: Wanted[], plan: InvitePlan, at: Date) {
  const invites = wanted.map(() => invitation(plan, at));
  const rows = await tx.member.createManyAndReturn({
    data: wanted.map((w, i) => ({ memberId: newMemberId(), organizationId, email: w.email, firstName: w.firstName, lastName: w.lastName, role: w.role ?? "member", ...invites[i]!.data })),
    skipDuplicates: true, // a concurrent add of the same email: that one is reported as a duplicate
  });
  const inviteByEmail = new Map(wanted.map((w, i) => [w.email, invites[i]!]));
  return rows.map((member) => ({ member, invite: inviteByEmail.get(member.email)! }));
}

/**
 * `commit`, when given, runs in the roster's transaction with the answer
 * (the Idempotency-Key's stored answer commits with the members).
 */
export async function addMembers(app: RosterCaller, body: AddMembersInput, commit?: (tx: Tx, added: AddedMembers) => Promise<void>) {
  const at = now();
  await assertSeatsPayable(app.organizationId, at);
  const plan = planInvite(body.invite, body.notify, mailAvailable());
  const { wanted, repeated } = distinct(body.members);
  await jobQueue(); // started before the transaction that queues into it
  const prisma = await db();
  return prisma.$transaction(
    async (tx) => {
      await ensureSubscription(tx, app.organizationId, at);
      const existing = await tx.member.findMany({ where: { organizationId: app.organizationId, email: { in: wanted.map((w) => w.email), mode: "insensitive" } } });
      const byEmail = new Map(existing.map((m) => [m.email.toLowerCase(), m]));
      const created: Created[] = [];
      const skipped: Array<{ email: string; reason: "duplicate" }> = repeated.map((email) => ({ email, reason: "duplicate" }));
      const jobs: NewJob[] = [];
      const report = (member: Member, link: string | null, method: InviteMethod, reactivated: boolean) =>
        created.push({ ...presentMember(member), activation_link: link, invite_method: method, ...(reactivated ? { reactivated: true as const } : {}) });

      for (const w of wanted) {
        const current = byEmail.get(w.email);
        if (!current) continue;
        if (current.status !== "deactivated") {
          skipped.push({ email: w.email, reason: "duplicate" });
          continue;
        }
        const back = await reactivation(tx, current, at);
        const names = { ...(w.firstName ? { firstName: w.firstName } : {}), ...(w.lastName ? { lastName: w.lastName } : {}), ...(w.role ? { role: w.role } : {}) };
        if (back.status === "active") {
          report(await tx.member.update({ where: { id: current.id }, data: { ...back, ...names, inviteMethod: "none" } }), null, "none", true);
          continue;
        }
        const invite = invitation(plan, at);
        const member = await tx.member.update({ where: { id: current.id }, data: { ...back, ...names, ...invite.data } });
        if (plan.email && invite.link) jobs.push(invitationEmailJob(member.memberId, invite.link));
        report(member, plan.returnLink ? invite.link!.url : null, plan.method, true);
      }

      const fresh = wanted.filter((w) => !byEmail.has(w.email));
      const inserted = await insertNew(tx, app.organizationId, fresh, plan, at);
      const insertedEmails = new Set(inserted.map((r) => r.member.email));
      for (const w of fresh) if (!insertedEmails.has(w.email)) skipped.push({ email: w.email, reason: "duplicate" });
      for (const { member, invite } of inserted) {
        if (plan.email && invite.link) jobs.push(invitationEmailJob(member.memberId, invite.link));
        report(member, plan.returnLink ? invite.link!.url : null, plan.method, false);
      }

      await enqueueJobs(jobs, tx);
      const order = new Map(wanted.map((w, i) => [w.email, i]));
      created.sort((a, b) => order.get(a.email)! - order.get(b.email)!);
      const added: AddedMembers = { created, skipped, notified: jobs.length > 0 };
      if (commit) await commit(tx, added);
      return added;
    },
    { timeout: 30_000 },
  );
}
