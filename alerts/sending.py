"""Sending digests: each reader's due deliveries as one e-mail, each event once.

How a delivery is sent exactly once, as far as the mail server allows:

- Claim and send in one transaction per reader. The transaction stamps the reader's due, unsent
  deliveries (`sent_at`, a `batch` id), renders the digest of exactly those, hands it to the mail
  server, and commits. On PostgreSQL the rows are first locked with `SELECT ... FOR UPDATE SKIP
  LOCKED`, so a second run going at the same time skips the reader the first one is serving rather
  than waiting for it; on SQLite, which lets one writer in at a time, the stamping UPDATE is the
  transaction's first statement, so a second run waits for the first to commit and then finds
  nothing left to claim.
- A run killed or failing before the commit (the mail server refused, the process died) rolls the
  stamps back: the next run sends those deliveries. Nothing is ever lost.
- The one case left is a crash after the mail server accepted the message and before the COMMIT
  reached the database: the next run sends that digest again. This is at-least-once delivery, with
  the duplicate window narrowed to one commit; the resent message carries the same Message-ID
  (derived from the reader and the events in it), which mail systems use to recognise a duplicate.
  We chose this over at-most-once (commit the stamps, then send), which would lose a digest silently
  on every crash between the commit and the send: a missed alert is worse than a rare repeat.

A mail server's refusal (SMTP error, connection refused) is reported and leaves that reader's
deliveries for the next run; any other exception stops the run, as a kill would.
"""

import hashlib
import logging
import smtplib
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import get_connection
from django.db import connection as db_connection
from django.db import transaction
from django.utils import timezone

from alerts import digest
from alerts.dispatch import fan_out
from alerts.models import Delivery

logger = logging.getLogger(__name__)


@dataclass
class SendReport:
    events_fanned_out: int = 0
    digests_sent: int = 0
    deliveries_sent: int = 0
    failures: list[str] = field(default_factory=list)


def send_alerts(*, now=None, mail_connection=None) -> SendReport:
    """Fan out new events, then send every reader whose deliveries are due their digest."""
    now = now or timezone.now()
    report = SendReport(events_fanned_out=fan_out())
    mail_connection = mail_connection or get_connection()
    readers = (
        Delivery.objects.filter(sent_at__isnull=True, due_at__lte=now)
        .order_by("user_id").values_list("user_id", flat=True).distinct()
    )
    for user_id in list(readers):
        try:
            sent = _send_to(user_id=user_id, now=now, mail_connection=mail_connection)
        except (smtplib.SMTPException, OSError) as error:
            logger.warning("alerts: the digest for user %s was not sent: %s", user_id, error)
            report.failures.append(f"user {user_id}: {error}")
            continue
        if sent:
            report.digests_sent += 1
            report.deliveries_sent += sent
    return report


def _send_to(*, user_id: int, now, mail_connection) -> int:
    """Claim the reader's due deliveries, send them as one digest, commit; how many were sent."""
    with transaction.atomic():
        due = Delivery.objects.filter(user_id=user_id, sent_at__isnull=True, due_at__lte=now)
        if db_connection.vendor == "postgresql":
            ids = list(due.select_for_update(skip_locked=True).values_list("pk", flat=True))
            if not ids:
                return 0
            due = Delivery.objects.filter(pk__in=ids, sent_at__isnull=True)
        batch = uuid.uuid4()
        if not due.update(sent_at=now, batch=batch):
            return 0
        deliveries = list(
            Delivery.objects.filter(batch=batch).select_related("follow").order_by("event_id")
        )
        user = get_user_model().objects.get(pk=user_id)
        message = digest.digest_message(user=user, deliveries=deliveries, message_id=_message_id(user_id, deliveries))
        if message is None:  # nothing left to tell (the records were removed): stamped, not sent
            return 0
        message.connection = mail_connection
        message.send()
    return len(deliveries)


def _message_id(user_id: int, deliveries: list[Delivery]) -> str:
    """The same reader and events give the same Message-ID: a resent digest is recognisably the same."""
    events = ",".join(str(delivery.event_id) for delivery in deliveries)
    digest_key = hashlib.sha256(f"{user_id}:{events}".encode()).hexdigest()[:24]
    return f"<alerts.{user_id}.{digest_key}@{settings.ALERTS_MAIL_DOMAIN}>"
