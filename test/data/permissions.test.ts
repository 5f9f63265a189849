/**
 * The permission helpers: the answers for the demo's collections (Posts written by the owner alone,
 * Notes each member's own), a missing role read as the platform's default, and, for every role, caller
 * and action, the same answer as the local platform's own rule (src/server/data/access.ts) gives.
 */
import { assert, describe, it } from "@effect/vitest"
import { collectionAccess, itemAllowed, type PermissionAction, type PermissionCaller } from "../../src/data/permissions.ts"
import { ROLES } from "../../src/data/protocol.ts"
import type { Permissions } from "../../src/data/wire/index.ts"
import { accessFor, covers } from "../../src/server/data/access.ts"
import type { Caller } from "../../src/server/platform/Caller.ts"

const POSTS: Permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }
const NOTES: Permissions = { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" }

const visitor: PermissionCaller = { kind: "visitor" }
const member: PermissionCaller = { kind: "member", id: "m-1" }
const owner: PermissionCaller = { kind: "owner" }
const ACTIONS: ReadonlyArray<PermissionAction> = ["read", "insert", "update", "remove"]

describe("collectionAccess", () => {
  it("Posts: anyone reads, the owner alone writes", () => {
    for (const caller of [visitor, member]) {
      assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(POSTS, caller, a)), ["all", "none", "none", "none"])
    }
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(POSTS, owner, a)), ["all", "all", "all", "all"])
  })

  it("Notes: a member adds, and reads, edits and removes its own; a visitor nothing; the owner everything", () => {
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(NOTES, member, a)), ["own", "all", "own", "own"])
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(NOTES, visitor, a)), ["none", "none", "none", "none"])
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(NOTES, owner, a)), ["all", "all", "all", "all"])
  })

  it("members' roles: SITE_MEMBER lets every member in, not a visitor; editors' roles are the owner's", () => {
    const members: Permissions = { read: "SITE_MEMBER", insert: "SITE_MEMBER", update: "CMS_EDITOR", remove: "PRIVILEGED" }
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(members, member, a)), ["all", "all", "none", "none"])
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(members, visitor, a)), ["none", "none", "none", "none"])
    assert.deepStrictEqual(ACTIONS.map((a) => collectionAccess(members, owner, a)), ["all", "all", "all", "all"])
  })

  it("a role left out reads as the platform's default: reading open, writing the owner's", () => {
    for (const permissions of [undefined, {}, { insert: "ANYONE" } as Permissions]) {
      assert.strictEqual(collectionAccess(permissions, visitor, "read"), "all")
      assert.strictEqual(collectionAccess(permissions, member, "update"), "none")
      assert.strictEqual(collectionAccess(permissions, owner, "remove"), "all")
    }
    assert.strictEqual(collectionAccess({ insert: "ANYONE" }, visitor, "insert"), "all")
    assert.strictEqual(collectionAccess({}, visitor, "insert"), "none")
  })
})

describe("itemAllowed", () => {
  it("an author edits and removes the items it owns, not another member's nor an ownerless one", () => {
    for (const action of ["update", "remove", "read"] as const) {
      assert.isTrue(itemAllowed(NOTES, member, action, { _owner: "m-1" }))
      assert.isFalse(itemAllowed(NOTES, member, action, { _owner: "m-2" }))
      assert.isFalse(itemAllowed(NOTES, member, action, {}))
      assert.isFalse(itemAllowed(NOTES, visitor, action, { _owner: "m-1" }))
      assert.isTrue(itemAllowed(NOTES, owner, action, { _owner: "m-2" }))
    }
  })

  it("an action open to all callers of a kind covers every item; one closed to them none", () => {
    assert.isTrue(itemAllowed(POSTS, visitor, "read", { _owner: "m-2" }))
    assert.isFalse(itemAllowed(POSTS, member, "update", { _owner: "m-1" }))
    assert.isTrue(itemAllowed(POSTS, owner, "update", {}))
  })
})

describe("the same answers as the local platform's rule", () => {
  const callers: ReadonlyArray<readonly [PermissionCaller, Caller]> = [
    [visitor, { kind: "visitor", id: "v-1", clientId: "c", tokenId: "t" }],
    [member, { kind: "member", id: "m-1", clientId: "c", tokenId: "t" }],
    [owner, { kind: "admin", keyId: "k", session: undefined }]
  ]
  const platform = (permissions: Permissions, caller: Caller, action: PermissionAction, owned: string | undefined): boolean => {
    try {
      return covers(accessFor({ id: "C", permissions }, action, caller), owned)
    } catch {
      return false
    }
  }

  it("for every role, caller, action and item owner", () => {
    let compared = 0
    for (const role of ROLES) {
      for (const action of ACTIONS) {
        const permissions: Permissions = { [action]: role }
        for (const [mine, theirs] of callers) {
          for (const owned of ["m-1", "m-2", undefined]) {
            assert.strictEqual(
              itemAllowed(permissions, mine, action, owned === undefined ? {} : { _owner: owned }),
              platform(permissions, theirs, action, owned),
              `${action} by ${mine.kind} under ${role} on an item owned by ${owned ?? "nobody"}`
            )
            compared++
          }
          // whether the caller may take the action on some item
          assert.strictEqual(collectionAccess(permissions, mine, action) !== "none", platform(permissions, theirs, action, "m-1") || platform(permissions, theirs, action, undefined))
        }
      }
    }
    assert.strictEqual(compared, ROLES.length * ACTIONS.length * 3 * 3)
  })
})
