@testable import Sluice
import SluiceTesting
import Testing

/// The slab of inner subscriptions behind `flatMap` (`Operators/Machinery/InnerSlots.swift`).
@Suite struct InnerSlotsTests {
    @Test func aPlaceFreedByAnInnerIsReusedUnderANewKeyThatTheOldKeyNeverFinds() {
        var slots = InnerSlots()
        let first = slots.reserve()
        let second = slots.reserve()
        #expect(slots.count == 2)
        let removed = slots.remove(first)
        let removedTwice = slots.remove(first)
        #expect(removed != nil && removedTwice == nil)

        let third = slots.reserve()  // takes the first's place
        #expect(third != first)
        #expect(third & 0xFFFF_FFFF == first & 0xFFFF_FFFF)
        #expect(slots.count == 2)

        // The stale key: no slot, no attach, no remove (the third is untouched).
        #expect(slots[first] == nil)
        let removedStale = slots.remove(first)
        #expect(removedStale == nil)
        #expect(slots[third] != nil)
        #expect(slots[second] != nil)
    }

    @Test func attachingGivesAnInnerItsSubscriptionOnce() {
        var slots = InnerSlots()
        let key = slots.reserve()
        let upstream = ControllablePublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        let attached = slots.attach(subscription, at: key)
        let attachedAgain = slots.attach(subscription, at: key)
        #expect(attached && !attachedAgain)
        #expect(slots.subscriptions.count == 1)
        let removed = slots.remove(key)
        #expect(removed?.isSubscribed == true)
        #expect(slots.isEmpty)
        let attachedAfterRemoval = slots.attach(subscription, at: key)
        #expect(!attachedAfterRemoval)
        #expect(slots.subscriptions.isEmpty)
        upstream.detachAll()
    }
}
