"""Per-user rate limit on challenges, shared by the API and the web form."""

from rest_framework.throttling import UserRateThrottle


class ChallengeThrottle(UserRateThrottle):
    """At most ``DEFAULT_THROTTLE_RATES['challenge']`` challenges per user (cache-backed)."""

    scope = "challenge"
