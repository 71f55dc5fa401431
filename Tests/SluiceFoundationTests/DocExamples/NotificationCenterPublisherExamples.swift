import Foundation
import Sluice
import SluiceFoundation
import Testing

// The doc comments' examples in NotificationCenterPublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

extension Notification.Name {
    fileprivate static let userDidLogIn = Notification.Name("NotificationCenterPublisherExamples.userDidLogIn")
}

@Suite struct NotificationCenterPublisherExamples {
    @Test func aPostedNotificationIsDeliveredInsidePost() {
        var refreshes = 0
        func refresh() { refreshes += 1 }
        // snippet NotificationCenterPublisherRefresh begin
        let cancellable = NotificationCenter.default
            .publisher(for: .userDidLogIn)   // a name the app declares
            .sink { notification in refresh() }
        // snippet NotificationCenterPublisherRefresh end
        NotificationCenter.default.post(name: .userDidLogIn, object: nil)
        #expect(refreshes == 1)
        cancellable.cancel()
        NotificationCenter.default.post(name: .userDidLogIn, object: nil)
        #expect(refreshes == 1)
    }
}
