"""Matches: the queue, the Celery task that runs them through the referee, replays and challenges."""
