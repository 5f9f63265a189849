/**
 * Member records: login e-mail (unique, case-insensitive), scrypt password hash, status with reasons,
 * e-mail verification, the must-reset flag, the profile (JSON) and enrolled MFA factors.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import type { IdentityProfile, IdentityStatusName, IdentityStatusReason } from "../../session/wire/index.ts"
import { Database, type Row } from "../platform/Database.ts"
import { ServerClock } from "../platform/ServerClock.ts"

export type StatusReason = typeof IdentityStatusReason.Type

export interface MemberRecord {
  readonly id: string
  readonly email: string
  readonly passwordHash: string | undefined
  readonly status: IdentityStatusName
  readonly reasons: ReadonlyArray<StatusReason>
  readonly emailVerified: boolean
  readonly mustReset: boolean
  readonly profile: IdentityProfile
  readonly contactId: string
  readonly revision: number
  readonly createdAt: number
  readonly updatedAt: number
  readonly lastLoginAt: number | undefined
}

export type MemberChanges = Partial<
  Pick<MemberRecord, "email" | "passwordHash" | "status" | "reasons" | "emailVerified" | "mustReset" | "profile" | "lastLoginAt">
>

export type EnrolledFactorType = "TOTP" | "EMAIL" | "SMS"

export interface FactorRecord {
  readonly id: string
  readonly memberId: string
  readonly type: EnrolledFactorType
  readonly secret: string | undefined
  readonly phone: string | undefined
  readonly createdAt: number
}

export interface NewMember {
  readonly email: string
  readonly passwordHash: string | undefined
  readonly status: IdentityStatusName
  readonly reasons: ReadonlyArray<StatusReason>
  readonly emailVerified: boolean
  readonly profile: IdentityProfile
}

export interface MemberStoreShape {
  readonly byId: (id: string) => MemberRecord | undefined
  readonly byEmail: (email: string) => MemberRecord | undefined
  readonly list: () => ReadonlyArray<MemberRecord>
  readonly create: (member: NewMember) => MemberRecord
  readonly update: (id: string, changes: MemberChanges) => MemberRecord
  readonly factors: (memberId: string) => ReadonlyArray<FactorRecord>
  readonly addFactor: (
    memberId: string,
    factor: { readonly type: EnrolledFactorType; readonly secret?: string; readonly phone?: string }
  ) => FactorRecord
  readonly removeFactor: (memberId: string, factorId: string) => boolean
}

/** Loose on purpose: the platform accepts any `local@domain.tld`. */
export const isEmail = (email: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254

export class MemberStore extends Context.Service<MemberStore, MemberStoreShape>()("sitefx/server/MemberStore") {
  static readonly layer: Layer.Layer<MemberStore, never, Database | ServerClock> = Layer.effect(
    MemberStore,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "members/1",
        `CREATE TABLE members (
          id TEXT PRIMARY KEY,
          email TEXT NOT NULL,
          email_key TEXT NOT NULL UNIQUE,
          password_hash TEXT,
          status TEXT NOT NULL,
          reasons TEXT NOT NULL,
          email_verified INTEGER NOT NULL,
          must_reset INTEGER NOT NULL DEFAULT 0,
          profile TEXT NOT NULL,
          contact_id TEXT NOT NULL,
          revision INTEGER NOT NULL DEFAULT 1,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          last_login_at INTEGER
        );
        CREATE TABLE member_factors (
          id TEXT PRIMARY KEY,
          member_id TEXT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
          type TEXT NOT NULL,
          secret TEXT,
          phone TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX member_factors_member ON member_factors (member_id);`
      )
      const toMember = (row: Row): MemberRecord => ({
        id: String(row.id),
        email: String(row.email),
        passwordHash: row.password_hash === null ? undefined : String(row.password_hash),
        status: row.status as IdentityStatusName,
        reasons: JSON.parse(String(row.reasons)) as Array<StatusReason>,
        emailVerified: row.email_verified === 1,
        mustReset: row.must_reset === 1,
        profile: JSON.parse(String(row.profile)) as IdentityProfile,
        contactId: String(row.contact_id),
        revision: Number(row.revision),
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
        lastLoginAt: row.last_login_at === null ? undefined : Number(row.last_login_at)
      })
      const toFactor = (row: Row): FactorRecord => ({
        id: String(row.id),
        memberId: String(row.member_id),
        type: row.type as EnrolledFactorType,
        secret: row.secret === null ? undefined : String(row.secret),
        phone: row.phone === null ? undefined : String(row.phone),
        createdAt: Number(row.created_at)
      })
      const byId = (id: string) => {
        const row = db.get("SELECT * FROM members WHERE id = ?", id)
        return row === undefined ? undefined : toMember(row)
      }
      return MemberStore.of({
        byId,
        byEmail: (email) => {
          const row = db.get("SELECT * FROM members WHERE email_key = ?", email.trim().toLowerCase())
          return row === undefined ? undefined : toMember(row)
        },
        list: () => db.all("SELECT * FROM members ORDER BY created_at, rowid").map(toMember),
        create: (member) => {
          const id = randomUUID()
          const now = clock.millis()
          db.run(
            `INSERT INTO members (id, email, email_key, password_hash, status, reasons, email_verified, profile, contact_id, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            id,
            member.email.trim(),
            member.email.trim().toLowerCase(),
            member.passwordHash ?? null,
            member.status,
            JSON.stringify(member.reasons),
            member.emailVerified ? 1 : 0,
            JSON.stringify(member.profile),
            randomUUID(),
            now,
            now
          )
          return byId(id)!
        },
        update: (id, changes) =>
          db.transaction(() => {
            const current = byId(id)
            if (current === undefined) throw new Error(`no member ${id}`)
            const next = { ...current, ...changes }
            db.run(
              `UPDATE members SET email = ?, email_key = ?, password_hash = ?, status = ?, reasons = ?, email_verified = ?,
               must_reset = ?, profile = ?, last_login_at = ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
              next.email,
              next.email.toLowerCase(),
              next.passwordHash ?? null,
              next.status,
              JSON.stringify(next.reasons),
              next.emailVerified ? 1 : 0,
              next.mustReset ? 1 : 0,
              JSON.stringify(next.profile),
              next.lastLoginAt ?? null,
              clock.millis(),
              id
            )
            return byId(id)!
          }),
        factors: (memberId) =>
          db.all("SELECT * FROM member_factors WHERE member_id = ? ORDER BY created_at, rowid", memberId).map(toFactor),
        addFactor: (memberId, factor) => {
          const id = randomUUID()
          db.run(
            "INSERT INTO member_factors (id, member_id, type, secret, phone, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            id,
            memberId,
            factor.type,
            factor.secret ?? null,
            factor.phone ?? null,
            clock.millis()
          )
          return toFactor(db.get("SELECT * FROM member_factors WHERE id = ?", id)!)
        },
        removeFactor: (memberId, factorId) =>
          db.run("DELETE FROM member_factors WHERE id = ? AND member_id = ?", factorId, memberId) > 0
      })
    })
  )
}
