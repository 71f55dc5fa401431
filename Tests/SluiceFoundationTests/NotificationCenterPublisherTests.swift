import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing

private let ping = Notification.Name("ping")
private let pong = Notification.Name("pong")

/// Posts `ping` carrying `index` in its user info.
private func post(_ index: Int, to center: NotificationCenter, from object: AnyObject? = nil) {
    center.post(name: ping, object: object, userInfo: ["index": index])
}

/// The index each notification carries.
private func indices(_ center: NotificationCenter, object: AnyObject? = nil) -> some Publisher<Int, Never> {
    center.publisher(for: ping, object: object).map { $0.userInfo?["index"] as? Int ?? -1 }
}

@Suite(.timeLimit(.minutes(12)))
struct NotificationCenterPublisherTests {
    @Test func deliversTheNotificationsOfItsNameOnThePostingThread() {
        let center = NotificationCenter()
        let recorder = RecordingSubscriber<Notification, Never>()
        defer { recorder.cancel() }
        center.publisher(for: ping).subscribe(recorder)
        center.post(name: ping, object: nil)
        center.post(name: pong, object: nil)
        center.post(name: ping, object: nil)
        #expect(recorder.values.map(\.name) == [ping, ping])
        #expect(recorder.completion == nil)
        #expect(recorder.violations.isEmpty)
    }

    @Test func anObjectFiltersTheNotificationsToThoseItPosts() {
        let center = NotificationCenter()
        let (mine, other) = (NSObject(), NSObject())
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        indices(center, object: mine).subscribe(recorder)
        post(1, to: center, from: mine)
        post(2, to: center, from: other)
        post(3, to: center)
        post(4, to: center, from: mine)
        #expect(recorder.values == [1, 4])
    }

    @Test func aNotificationPostedWithoutDemandIsDropped() {
        let center = NotificationCenter()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        indices(center).subscribe(recorder)
        post(1, to: center)
        recorder.request(.max(2))
        for index in 2...5 { post(index, to: center) }
        recorder.request(.max(1))
        post(6, to: center)
        #expect(recorder.values == [2, 3, 6])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelRemovesTheObserverAndReleasesTheSubscriber() {
        let center = NotificationCenter()
        weak var released: RecordingSubscriber<Int, Never>?
        weak var releasedObject: NSObject?
        do {
            let object = NSObject()
            releasedObject = object
            let recorder = RecordingSubscriber<Int, Never>()
            defer { recorder.cancel() }
            released = recorder
            indices(center, object: object).subscribe(recorder)
            post(1, to: center, from: object)
            recorder.cancel()
            post(2, to: center, from: object)
            recorder.cancel()
            #expect(recorder.values == [1])
        }
        #expect(released == nil)
        #expect(releasedObject == nil)
    }


    @Test func cancellingInsideReceiveStopsDeliveryAtOnce() {
        let center = NotificationCenter()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        recorder.onValue { _ in recorder.cancel(); return .none }
        indices(center).subscribe(recorder)
        post(1, to: center)
        post(2, to: center)
        #expect(recorder.values == [1])
        #expect(recorder.violations.isEmpty)
    }

    @Test func aNotificationPostedInsideReceiveIsDeliveredAfterItInOrder() {
        let center = NotificationCenter()
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        recorder.onValue { index in
            if index < 3 { post(index + 1, to: center) }
            return .none
        }
        indices(center).subscribe(recorder)
        post(1, to: center)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.violations.isEmpty)
    }

    @Test func postsFromManyThreadsAreDeliveredOneAtATimeOnAPostingThread() {
        let center = NotificationCenter()
        let recorder = RecordingSubscriber<UInt, Never>()
        defer { recorder.cancel() }
        let posters = Locked<Set<UInt>>([])
        center.publisher(for: ping).map { _ in currentThreadIdentity() }.subscribe(recorder)
        runConcurrently { _ in
            posters.withLock { _ = $0.insert(currentThreadIdentity()) }
            for _ in 0..<200 { center.post(name: ping, object: nil) }
        }
        #expect(recorder.valueCount == 200 * defaultRacingThreads)
        #expect(Set(recorder.values).isSubset(of: posters.withLock { $0 }))
        #expect(recorder.violations.isEmpty)
    }

    @Test func publishersAreEqualWhenTheyObserveTheSameThing() {
        let center = NotificationCenter()
        let object = NSObject()
        #expect(center.publisher(for: ping, object: object) == NotificationCenter.Publisher(center: center, name: ping, object: object))
        #expect(center.publisher(for: ping) != center.publisher(for: pong))
        #expect(center.publisher(for: ping) != center.publisher(for: ping, object: object))
        #expect(center.publisher(for: ping) != NotificationCenter().publisher(for: ping))
    }
}
