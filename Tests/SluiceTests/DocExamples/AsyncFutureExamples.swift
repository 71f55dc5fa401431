import Sluice
import Synchronization
import Testing

// The doc comments' examples in AsyncFuture.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct AsyncFutureExamples {
    struct Profile: Equatable, Sendable {
        var name: String
    }

    struct APIError: Error {}

    final class API: Sendable {
        let calls = Mutex(0)
        func fetchProfile() async throws(APIError) -> Profile {
            calls.withLock { $0 += 1 }
            return Profile(name: "Ada")
        }
    }

    @Test func theCallStartsWithTheSubscriberAndDeliversItsResult() async {
        let api = API()
        let (shown, shownContinuation) = AsyncStream<Profile>.makeStream()
        func show(_ profile: Profile) { shownContinuation.yield(profile) }
        // snippet AsyncFutureLazyCall begin
        let profile = AsyncFuture<Profile, APIError> { () throws(APIError) in
            try await api.fetchProfile()   // not called yet
        }
        #expect(api.calls.withLock { $0 } == 0)
        let cancellable = profile.sink(receiveCompletion: { _ in }, receiveValue: { show($0) })   // calls it
        // snippet AsyncFutureLazyCall end
        #expect(await prefix(1, of: shown) == [Profile(name: "Ada")])
        #expect(api.calls.withLock { $0 } == 1)
        cancellable.cancel()
    }
}
