"""The three groups every deployment starts with: Viewer, Editor, Admin."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

EDITABLE = [
    "person", "role", "source", "meeting", "statement", "position",
    "offer", "fundingsource", "jurisdictiontreatment", "phaseinstep",
]


def create_groups(apps, schema_editor):
    # Permissions are normally created after all migrations; make sure they exist now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ours = Permission.objects.filter(content_type__app_label__in=["negotiations", "grants"])

    viewer, _ = Group.objects.get_or_create(name="Viewer")
    viewer.permissions.set(ours.filter(codename__startswith="view_"))

    editor, _ = Group.objects.get_or_create(name="Editor")
    editor_codenames = [f"{action}_{model}" for model in EDITABLE for action in ("add", "change")]
    editor.permissions.set(ours.filter(codename__startswith="view_") | ours.filter(codename__in=editor_codenames))

    admin, _ = Group.objects.get_or_create(name="Admin")
    admin.permissions.set(ours)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["Viewer", "Editor", "Admin"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("negotiations", "0001_initial"),
        ("grants", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
