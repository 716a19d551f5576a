# Airflow runs an operator's execute() and a TaskFlow @task function on a worker: a request with no
# timeout there holds the task slot until Airflow's execution timeout, if the DAG sets one. Flagged:
# the operator's execute() and the @task function. Not flagged: the operator's __init__ (it runs
# when the scheduler parses the DAG file, not in the task) and a request with a timeout.
import requests
from airflow.decorators import task
from airflow.models import BaseOperator


class ExportOperator(BaseOperator):
    def __init__(self, endpoint, **kwargs):
        super().__init__(**kwargs)
        self.endpoint = endpoint
        self.schema = requests.get(f"{endpoint}/schema").json()

    def execute(self, context):
        return requests.post(self.endpoint, json=context["params"]).status_code  # error: BG203


@task
def fetch_rates():
    return requests.get("https://rates.example.com/today").json()  # error: BG203


@task
def fetch_rates_bounded():
    return requests.get("https://rates.example.com/today", timeout=30).json()
