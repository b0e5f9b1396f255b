"""Version tests: "is my new version better?" by a sequential probability ratio test (unrated games)."""
