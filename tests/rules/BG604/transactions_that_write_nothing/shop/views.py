from django.db import transaction
from django.shortcuts import redirect

from shop.tasks import rebuild_index


def load_project(pk):
    return Project.objects.get(pk=pk)  # reads only


@transaction.atomic
def schedule_rebuild(request, pk):
    # Silent: the transaction only reads; a rollback takes back nothing the task could miss.
    project = load_project(pk)
    if not request.user.has_perm("edit", project):
        return redirect("home")
    rebuild_index.delay(project.pk)
    return redirect("project", pk=pk)


@transaction.atomic
def remove(request, obj):
    if obj.kind == "translation":
        obj.delete()  # a write on another branch: not on the way to the publishes below
        return redirect("home")
    elif obj.kind == "project":
        rebuild_index.delay(obj.pk)  # silent: nothing on this path writes
    else:
        obj.archived = True
        obj.save()
        rebuild_index.delay(obj.pk)  # error: BG604
    return redirect("home")


def refresh(request, pk):
    with transaction.atomic():
        project = load_project(pk)
        rebuild_index.delay(project.pk)  # silent: the block only reads
    with transaction.atomic():
        project = load_project(pk)
        rebuild_index.delay(project.pk)  # error: BG604
        touch(project)  # a project function that writes, after the publish


def touch(project):
    save_later(project)


def save_later(project):
    project.save(update_fields=["modified"])


