import Foundation
import MobileTracker

// The Swift examples of the MobileTracker API reference, pasted unchanged,
// each inside a function and nothing else. If the reference's API changes
// shape, this file stops compiling.

/// "Initialize" (iOS).
func referenceInitialize() {
Task {
    do {
        try await MobileTracker.shared.initialize(
            brandId: "925",
            config: TrackerConfig(
                debug: true,
                apiUrl: "https://api.yourbackend.com",
                xApiKey: "your-api-key",
                crossSiteCookie: false,
                cookieExpiration: 365
            )
        )
        print("Tracker initialized with session")
    } catch {
        print("Initialization failed: \(error)")
    }
}
}

/// "Track events" (iOS).
func referenceTrack() async {
// Simple event
await MobileTracker.shared.track(
    eventName: "BUTTON_CLICK",
    attributes: nil,
    metadata: nil
)

// Event with attributes
await MobileTracker.shared.track(
    eventName: "PRODUCT_VIEWED",
    attributes: [
        "product_id": "12345",
        "product_name": "Blue Widget",
        "price": 29.99,
        "category": "Widgets",
        "in_stock": true
    ],
    metadata: nil
)

// Event with attributes and metadata
await MobileTracker.shared.track(
    eventName: "PURCHASE",
    attributes: [
        "order_id": "ORD-789",
        "total": 149.99,
        "items": [
            ["id": "12345", "quantity": 2],
            ["id": "67890", "quantity": 1]
        ]
    ],
    metadata: [
        "flow_id": "checkout_v2",
        "experiment": "new_checkout"
    ]
)
}

/// "Identify users" (iOS).
func referenceIdentify() async {
// Basic identification
await MobileTracker.shared.identify(userId: "user123", profileData: nil)

// Identification with profile data
await MobileTracker.shared.identify(
    userId: "user123",
    profileData: [
        "email": "user@example.com",
        "name": "John Doe",
        "phone": "+1234567890",
        "plan": "pro",
        "signup_date": "2025-01-15"
    ]
)
}

/// "Set profile data" (iOS).
func referenceSet() async {
await MobileTracker.shared.set(profileData: [
    "plan": "enterprise",
    "last_login": "2025-11-27",
    "preferences": [
        "theme": "dark",
        "language": "en"
    ]
])
}

/// "Set metadata" (iOS).
func referenceSetMetadata() async {
await MobileTracker.shared.setMetadata([
    "session_type": "premium",
    "feature_flags": ["new_ui", "dark_mode"],
    "experiment_group": "variant_a"
])
}

/// "Reset" (iOS).
func referenceReset() {
// Clear session but keep brand ID (typical logout)
MobileTracker.shared.reset(all: false)

// Clear everything including brand ID (complete reset)
MobileTracker.shared.reset(all: true)
}

/// "Screen views" (iOS).
func referenceScreenView() async {
// iOS
await MobileTracker.shared.track(
    eventName: "VIEW_PAGE",
    attributes: ["screen": "ProductDetails", "product_id": "12345"]
)
}

/// "Configuration" (the configuration struct with every field).
func referenceConfiguration() async throws {
let config = TrackerConfig(
    debug: true,
    apiUrl: "https://api.example.com",
    xApiKey: "your-api-key",
    crossSiteCookie: false,
    cookieDomain: nil,
    cookieExpiration: 365
)

try await MobileTracker.shared.initialize(brandId: "925", config: config)
}

/// "Environment-based configuration" (iOS, in AppDelegate).
func referenceEnvironment() {
// iOS - In AppDelegate
Task {
    do {
        try await MobileTracker.shared.initialize(
            brandId: ProcessInfo.processInfo.environment["BRAND_ID"] ?? "925",
            config: TrackerConfig(
                debug: true,
                apiUrl: "https://api.example.com",
                xApiKey: ProcessInfo.processInfo.environment["API_KEY"] ?? ""
            )
        )
    } catch {
        print("Tracker initialization failed: \(error)")
    }
}
}

/// The reference's error cases (`enum TrackerError`), matched as it names them.
func referenceErrorCase(_ error: TrackerError) -> String {
    switch error {
    case .invalidBrandId: return "invalidBrandId"
    case .invalidConfiguration: return "invalidConfiguration"
    case .sessionCreationFailed: return "sessionCreationFailed"
    case .serializationFailed: return "serializationFailed"
    case .networkError(underlying: let underlying): return "networkError: \(underlying)"
    }
}
