"""When an endpoint was disabled: enabling it again sends the events of its types since then.
An endpoint disabled before this field counts as disabled since its last delivery was made
(the events after it have none)."""

from django.db import migrations, models
from django.db.models import Max


def disabled_since_last_delivery(apps, schema_editor):
    WebhookEndpoint = apps.get_model("api", "WebhookEndpoint")
    disabled = WebhookEndpoint.objects.filter(active=False).annotate(
        last_delivery=Max("deliveries__created_at")
    )
    for endpoint in disabled:
        endpoint.disabled_at = endpoint.last_delivery or endpoint.created_at
        endpoint.save(update_fields=["disabled_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0002_events_webhooks"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookendpoint",
            name="disabled_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="Enabling it again sends the events of its types since then.",
                null=True,
                verbose_name="disabled at",
            ),
        ),
        migrations.RunPython(disabled_since_last_delivery, migrations.RunPython.noop),
    ]
