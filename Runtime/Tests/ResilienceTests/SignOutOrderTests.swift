import Foundation
import PlatformRules
import Resilience
import Testing
import Waiting

/// Sign-out always wins (``TokenSession`` guarantee 7): every store call of
/// a session runs in the session's order, so a sign-out that comes while a
/// refresh is saving its new token clears after that save, never before it,
/// whatever the store: in memory, or the Keychain by its rules ("update,
/// else add" would bring a deleted item back).
@Suite struct SignOutOrderTests {
    /// A token store whose first `save` waits until the test releases it,
    /// over a real store; every other call goes straight through. An actor,
    /// so that while the held save waits, other calls can run: as a real
    /// store's calls may from other tasks.
    actor HeldSaveStore: TokenStore {
        let base: any TokenStore
        private(set) var savesStarted = 0
        private var held: CheckedContinuation<Void, Never>?
        private var released = false

        init(base: any TokenStore) {
            self.base = base
        }

        func loadRefreshToken() async throws -> String? { try await base.loadRefreshToken() }

        func save(refreshToken: String) async throws {
            savesStarted += 1
            if savesStarted == 1, !released { await withCheckedContinuation { held = $0 } }
            try await base.save(refreshToken: refreshToken)
        }

        func clear() async throws { try await base.clear() }

        /// Lets the held save go on.
        func release() {
            released = true
            held?.resume()
            held = nil
        }

        /// Whether the first save is waiting at the gate.
        var isHolding: Bool { held != nil }
    }

    enum Kind: String, CaseIterable, Sendable {
        case memory, keychain

        func store(holding token: String) async throws -> any TokenStore {
            switch self {
            case .memory: return InMemoryTokenStore(refreshToken: token)
            case .keychain:
                let store = SecretItemTokenStore<SimulatedKeychainItem>(service: "app.test.sign-out-order." + UUID().uuidString)
                try store.save(refreshToken: token)
                return store
            }
        }
    }

    /// A session signed in with `signedInWith` (access and refresh token)
    /// whose refresh, started here, gets `refreshedTo` and is saving it,
    /// held open.
    static func refreshSavingWhileHeld(
        _ kind: Kind, signedInWith current: (String, String), refreshedTo next: (String, String)
    ) async throws -> (HeldSaveStore, TokenSession, Task<Void, any Error>) {
        let store = HeldSaveStore(base: try await kind.store(holding: current.1))
        let refresher = ClosureTokenRefresher { _ in TokenPair(accessToken: next.0, refreshToken: next.1) }
        let session = TokenSession(store: store, refresher: refresher, accessToken: current.0)
        let refresh = Task { try await session.refresh(after: session.generation) }
        try await waitUntil("the refresh's save to be under way") { await store.isHolding }
        return (store, session, refresh)
    }

    @Test(arguments: Kind.allCases)
    func aSignOutWhileARefreshSavesItsTokenLeavesNoToken(_ kind: Kind) async throws {
        let (store, session, refresh) = try await Self.refreshSavingWhileHeld(kind, signedInWith: ("a-1", "r-1"), refreshedTo: ("a-2", "r-2"))

        let signedIn = session.signInEpoch
        let signOut = Task { try await session.signOut() }
        try await waitUntil("the sign-out to end the sign-in") { session.signInEpoch != signedIn }
        // The sign-out has made its store call; the refresh's save now ends.
        await store.release()
        try await signOut.value
        _ = try? await refresh.value

        #expect(try await store.base.loadRefreshToken() == nil, "the refreshed token is not left in the \(kind) store")
        #expect(session.accessToken == nil)
        #expect(await session.hasStoredRefreshToken() == false)
        await #expect(throws: TokenRefreshError.notSignedIn) { try await session.refresh(after: session.generation) }
    }

    @Test(arguments: Kind.allCases)
    func aLateRefreshOfOneUserNeverReplacesTheNextUsersToken(_ kind: Kind) async throws {
        let (store, session, refresh) = try await Self.refreshSavingWhileHeld(kind, signedInWith: ("a-A", "r-A"), refreshedTo: ("a-A2", "r-A2"))

        let signIn = Task { try await session.signIn(TokenPair(accessToken: "a-B", refreshToken: "r-B")) }
        try await waitUntil("user B's sign-in to start") { session.recentTokens.contains("r-B") }
        await store.release()
        try await signIn.value
        _ = try? await refresh.value

        #expect(try await store.base.loadRefreshToken() == "r-B", "user B's token is the one kept")
        #expect(session.accessToken == "a-B")
    }

    @Test func aSignOutWhileASignInSavesItsTokenWinsAndTheSignInSaysSo() async throws {
        let store = HeldSaveStore(base: InMemoryTokenStore())
        let session = TokenSession(store: store, refresher: ClosureTokenRefresher { _ in throw TokenRefreshError.rejected })
        let signIn = Task { try await session.signIn(TokenPair(accessToken: "a-1", refreshToken: "r-1")) }
        try await waitUntil("the sign-in's save to be under way") { await store.isHolding }
        let signOut = Task { try await session.signOut() }
        // The sign-out publishes its end of the session before its store call.
        try await waitUntil("the sign-out to start") { session.signInEpoch != 0 }
        await store.release()
        try await signOut.value
        await #expect(throws: TokenRefreshError.signInChanged) { try await signIn.value }
        #expect(try await store.base.loadRefreshToken() == nil)
        #expect(session.accessToken == nil)
    }
}
