# Not flagged: other objects create task and submit.
def main(jira, form):
    jira.create_task("fix it")
    form.submit()
