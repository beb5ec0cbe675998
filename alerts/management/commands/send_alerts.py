"""Send the e-mail digests that are due. Run it every few minutes from cron or a systemd timer."""

from django.core.management.base import BaseCommand, CommandError

from alerts.sending import send_alerts


class Command(BaseCommand):
    help = "Fan out new changes to their followers and send each reader's due digest (one e-mail per reader)."

    def handle(self, *args, **options):
        report = send_alerts()
        self.stdout.write(
            f"{report.events_fanned_out} new events, {report.digests_sent} digests sent "
            f"({report.deliveries_sent} events)"
        )
        if report.failures:
            raise CommandError(
                f"{len(report.failures)} digests not sent (left for the next run): " + "; ".join(report.failures)
            )
