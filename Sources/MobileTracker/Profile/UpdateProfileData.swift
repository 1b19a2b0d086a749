import ClientRuntime

/// A profile update, as the reference's `UpdateProfileData`: the documented
/// profile fields, free-form `metadata`, and the user it belongs to. Sent by
/// ``MobileTracker/updateProfile(_:)`` with `PUT /v1/customer-profiles/set`.
///
/// `metadata` holds JSON values, written as literals:
/// `UpdateProfileData(name: "John Doe", metadata: ["plan": "premium", "seats": 5])`.
public struct UpdateProfileData: Codable, Hashable, Sendable {
    /// The user's name.
    public var name: String?
    /// The user's phone number (masked in every log line).
    public var phone: String?
    /// The user's gender, as the app records it.
    public var gender: String?
    /// The user's business domain.
    public var businessDomain: String?
    /// Anything else about the user, as JSON.
    public var metadata: [String: JSONValue]?
    /// The user's email address.
    public var email: String?
    /// Where the user came from (a campaign, a referral).
    public var source: String?
    /// The user's birthday, as the app writes it (`1990-04-01`).
    public var birthday: String?
    /// The user the profile belongs to: when it differs from the identified
    /// one, the session is linked to this user first, as
    /// ``MobileTracker/identify(userId:profileData:)`` does. Nil: the
    /// identified user, if any.
    public var userId: String?

    /// A profile update; what is nil is left as the server has it.
    public init(
        name: String? = nil, phone: String? = nil, gender: String? = nil, businessDomain: String? = nil, metadata: [String: JSONValue]? = nil,
        email: String? = nil, source: String? = nil, birthday: String? = nil, userId: String? = nil
    ) {
        self.name = name
        self.phone = phone
        self.gender = gender
        self.businessDomain = businessDomain
        self.metadata = metadata
        self.email = email
        self.source = source
        self.birthday = birthday
        self.userId = userId
    }
}
