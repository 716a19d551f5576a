#!/usr/bin/env python3
"""bgcheck's ecosystem check: findings on real applications and libraries, judged blind.

    python scripts/ecosystem.py                   # fetch if needed, check, compare, write the report
    python scripts/ecosystem.py --project zou     # one project only (the report is not rewritten)
    python scripts/ecosystem.py --packets DIR     # also write what judges need: a file per project
    python scripts/ecosystem.py --save-run R.json # keep what bgcheck found, to report it again:
    python scripts/ecosystem.py --from-run R.json # the report from a kept run, with today's verdicts

The corpus is the code folders of pinned PyPI source distributions (tests left out), unpacked
into scripts/.ecosystem/ (git-ignored): applications that run background work (asyncio
services and bots, trading engines, downloaders, Django, Flask and FastAPI apps with Celery,
RQ or their own workers) more than worker libraries. bgcheck runs on each project with its
default configuration and the preview rules on, from this checkout (not an installed copy),
and lists the jobs it found there.

Every finding is judged by two judges who did not write the rules, working apart, each given
only the finding (path, line, message, explanation, notes: what --packets writes), the rule's
page and the project's code, as that project's maintainer would judge it:

    real       the failure the rule describes can happen here; a maintainer would change the code
    false      it cannot happen here (the stop cannot arrive, the object is not what the rule thinks,
               a bound or guard the rule did not see, the documented idiom)
    debatable  the letter matches, the harm depends on facts not in the code

Each judge's verdict is a row of scripts/ecosystem/verdicts.tsv (project, path, line, code,
judge, verdict, reason). Where the two agree that is the verdict, where they differ it is
debatable; a row is never changed because the code changed. Precision = real / (real +
false); debatable is shown apart.

The projects are split once, by a fixed rule (halves()), into a tuning half and a held-out
half. Rules may be tuned on the tuning half; whether a rule is on by default is decided on the
held-out half alone, so the report names the findings of the tuning half only and counts the
held-out half's. The report is printed and written to scripts/ecosystem/report.md, its first
table to the README. Exit 1 while any finding wants a verdict. Like the benchmark, this is run
by hand: CI does not run it (it needs the network the first time).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORK = HERE / ".ecosystem"
VERDICTS_FILE = HERE / "ecosystem" / "verdicts.tsv"
REPORT = HERE / "ecosystem" / "report.md"
README = REPO / "README.md"
README_START = "<!-- ecosystem table: written by scripts/ecosystem.py -->"
README_END = "<!-- end of ecosystem table -->"

APPLICATION = "application"
LIBRARY = "library"
FIRST_BATCH = "first"
SECOND_BATCH = "2026-12-03"
THIRD_BATCH = "2026-12-04"
FOURTH_BATCH = "2026-12-04b"
FIFTH_BATCH = "2026-12-05"
SIXTH_BATCH = "2026-12-05b"
SEVENTH_BATCH = "2026-12-05c"
EIGHTH_BATCH = "2026-12-05d"
NINTH_BATCH = "2026-12-05e"
TENTH_BATCH = "2026-12-05f"
ELEVENTH_BATCH = "2026-12-05g"
TWELFTH_BATCH = "2026-12-05h"
THIRTEENTH_BATCH = "2026-12-05i"
FOURTEENTH_BATCH = "2026-12-05j"
FIFTEENTH_BATCH = "2026-12-05k"
SIXTEENTH_BATCH = "2026-12-06"
SEVENTEENTH_BATCH = "2026-12-06b"
EIGHTEENTH_BATCH = "2026-12-06c"
NINETEENTH_BATCH = "2026-12-06d"
TWENTIETH_BATCH = "2026-12-06e"
TWENTY_FIRST_BATCH = "2026-12-06f"
TWENTY_SECOND_BATCH = "2026-12-06g"
TWENTY_THIRD_BATCH = "2026-12-06h"
TWENTY_FOURTH_BATCH = "2026-12-06i"
TWENTY_FIFTH_BATCH = "2026-12-06j"
TWENTY_SIXTH_BATCH = "2026-12-06k"
TWENTY_SEVENTH_BATCH = "2026-12-06l"
TWENTY_EIGHTH_BATCH = "2026-12-06m"
TWENTY_NINTH_BATCH = "2026-12-06n"
THIRTIETH_BATCH = "2026-12-06o"
THIRTY_FIRST_BATCH = "2026-12-06p"
THIRTY_SECOND_BATCH = "2026-12-06q"
THIRTY_THIRD_BATCH = "2026-12-06r"
THIRTY_FOURTH_BATCH = "2026-12-06s"
THIRTY_FIFTH_BATCH = "2026-12-06t"
THIRTY_SIXTH_BATCH = "2026-12-06u"
THIRTY_SEVENTH_BATCH = "2026-12-06v"
THIRTY_EIGHTH_BATCH = "2026-12-06w"
THIRTY_NINTH_BATCH = "2026-12-06x"
FORTIETH_BATCH = "2026-12-06y"
FORTY_FIRST_BATCH = "2026-12-06z"
FORTY_SECOND_BATCH = "2026-12-07a"


@dataclass(frozen=True)
class Project:
    pin: str  # name==version of the PyPI sdist
    folders: tuple[str, ...]  # the folders of the sdist that hold the code (tests are left out)
    kind: str  # APPLICATION (a service, bot or web app that runs background work) or LIBRARY
    # The batch the project joined the check in: each batch is split on its own (halves()), so a
    # project added later never moves an earlier one from its half.
    batch: str = FIRST_BATCH

    @property
    def name(self) -> str:
        return self.pin.split("==")[0]

    @property
    def version(self) -> str:
        return self.pin.split("==")[1]


def _app(pin: str, *folders: str, batch: str = FIRST_BATCH) -> Project:
    return Project(pin, folders, APPLICATION, batch)


def _lib(pin: str, *folders: str, batch: str = FIRST_BATCH) -> Project:
    return Project(pin, folders, LIBRARY, batch)


# Applications more than libraries: asyncio services and bots, trading engines, downloaders,
# Home Assistant style apps, Django + Celery, Flask + Celery or RQ, FastAPI services; then the
# worker libraries. Left out on purpose, so that independent measures remain: arq, APScheduler,
# changedetection.io, zigpy, aioesphomeapi, aiohomekit, python-matter-server, uiprotect, and the
# applications that reviewers outside this repository judge (supervisor, bitcart, mitmproxy,
# netbox, AWX). Left out at first and taken in later, each in a batch chosen by kind: lnbits,
# mayan-edms, OctoPrint, ArchiveBox and pulpcore (ninth batch), prefect and saleor (tenth).
PROJECTS = [
    # asyncio services, bots, trading engines
    _app("freqtrade==2026.9", "freqtrade"),
    _app("octobot==2.1.0", "octobot", "octobot_trading", "octobot_services", "octobot_commons",
         "octobot_evaluators", "octobot_backtesting", "octobot_node", "octobot_agents",
         "octobot_tentacles_manager", "async_channel", "trading_backend"),
    _app("jesse==3.5.3", "jesse"),
    _app("hummingbot==20260922", "hummingbot"),
    _app("matrix-synapse==1.163.2", "synapse"),
    _app("maubot==0.6.0", "maubot"),
    _app("mautrix-telegram==0.15.3", "mautrix_telegram"),
    _app("opsdroid==0.31.0", "opsdroid"),
    _app("red-discordbot==3.5.24", "redbot"),
    _app("errbot==6.2.1", "errbot"),
    _app("jupyterhub==6.1.1", "jupyterhub"),
    _app("khoj==1.42.10", "src/khoj"),
    _app("open-webui==0.12.4", "backend/open_webui"),
    _app("openhands-ai==1.11.0", "openhands"),
    _app("appdaemon==4.5.13", "appdaemon"),
    _app("esphome==2026.10.0", "esphome"),
    _app("conda-store-server==2025.2.2", "conda_store_server"),
    # threads: downloaders, clients, bots, monitors
    _app("sopel==8.0.4", "sopel"),
    _app("streamlink==8.6.3", "src/streamlink", "src/streamlink_cli"),
    _app("gallery-dl==1.32.18", "gallery_dl"),
    _app("pyload-ng==0.5.0b3.dev101", "src/pyload"),
    _app("nicotine-plus==3.3.11", "pynicotine"),
    _app("sickchill==2024.3.1", "sickchill"),
    _app("calibreweb==0.6.27", "src/calibreweb"),
    _app("glances==4.5.8", "glances"),
    _app("locust==2.47.0", "locust"),
    # twisted services
    _app("buildbot==4.3.0", "buildbot"),
    _app("deluge==2.2.0", "deluge"),
    # Django, Flask, FastAPI applications with Celery, RQ, huey or their own workers
    _app("misago==0.39.6", "misago"),
    _app("kolibri==0.19.5", "kolibri"),
    _app("galaxy-app==26.1.2", "src/galaxy"),
    _app("modoboa==2.12.0", "modoboa"),
    _app("wger==2.1", "wger"),
    _app("openwisp-monitoring==1.3", "openwisp_monitoring"),
    _app("zou==1.0.97", "zou"),
    _app("flaskbb==2.2.0", "flaskbb"),
    _app("lemur==1.9.3", "lemur"),
    _app("dallinger==12.4.0", "dallinger"),
    _app("mlflow==3.18.0", "mlflow"),
    _app("apache-airflow-core==3.1.0", "src/airflow"),
    _app("flower==2.2.0", "flower"),
    _app("pretalx==2025.2.2", "src/pretalx"),
    _app("pretix==2026.8.0", "src/pretix"),
    _app("weblate==2026.10.1", "weblate"),
    _app("label-studio==1.23.2", "label_studio"),
    _app("mailman==3.3.10", "src/mailman"),
    _app("hyperkitty==1.3.12", "hyperkitty"),
    _app("ckan==2.12.0", "ckan"),
    _app("nautobot==3.2.7", "nautobot"),
    _app("apache-superset==6.1.0", "superset"),
    # Added on 2026-12-03 (split on their own): asyncio nodes, servers, downloaders and web apps,
    # a thread-based music server, Django and Flask applications with Celery.
    _app("chia-blockchain==2.7.5", "chia", batch=SECOND_BATCH),
    _app("electrumx==1.20.2", "electrumx", batch=SECOND_BATCH),
    _app("spotdl==4.6.0", "spotdl", batch=SECOND_BATCH),
    _app("datasette==0.65.5", "datasette", batch=SECOND_BATCH),
    _app("marimo==0.25.2", "marimo", batch=SECOND_BATCH),
    _app("poezio==0.18", "poezio", batch=SECOND_BATCH),
    _app("tgcf==1.1.8", "tgcf", batch=SECOND_BATCH),
    _app("motioneye==0.44.0", "motioneye", batch=SECOND_BATCH),
    _app("mopidy==4.0.5", "src/mopidy", batch=SECOND_BATCH),
    _app("arches==8.1.5", "arches", batch=SECOND_BATCH),
    _app("kiwitcms==12.4", "tcms", batch=SECOND_BATCH),
    _app("opencve==1.5.0", "opencve", batch=SECOND_BATCH),
    # Added on 2026-12-04 (split on their own): asyncio Matrix services, a thread-based IRC bot, a
    # downloader with its own scheduler, Celery and pulp-tasking applications (Pyramid, Django).
    _app("pantalaimon==0.10.5", "pantalaimon", batch=THIRD_BATCH),
    _app("heisenbridge==1.15.4", "heisenbridge", batch=THIRD_BATCH),
    _app("limnoria==2026.10.4", "src", "plugins", batch=THIRD_BATCH),
    _app("flexget==3.22.8", "flexget", batch=THIRD_BATCH),
    _app("bodhi-server==26.4.0", "bodhi", batch=THIRD_BATCH),
    _app("galaxy-ng==4.9.2", "galaxy_ng", batch=THIRD_BATCH),
    # Added later on 2026-12-04 (split on their own): asyncio servers that run their users' apps
    # (sessions, websockets, queues of events) and two Django + Celery network-management apps.
    _app("jupyter-server==2.21.1", "jupyter_server", batch=FOURTH_BATCH),
    _app("streamlit==1.67.0", "streamlit", batch=FOURTH_BATCH),
    _app("gradio==6.31.0", "gradio", batch=FOURTH_BATCH),
    _app("nicegui==3.18.0", "nicegui", batch=FOURTH_BATCH),
    _app("chainlit==2.12.0", "chainlit", batch=FOURTH_BATCH),
    _app("openwisp-controller==1.3.2", "openwisp_controller", batch=FOURTH_BATCH),
    _app("openwisp-radius==1.3.3", "openwisp_radius", batch=FOURTH_BATCH),
    # Added on 2026-12-05 (split on their own): asyncio LLM servers and chat-bot platforms (task
    # pipelines, queues, websockets) and Django applications with Celery or their own workers.
    _app("lightrag-hku==1.5.7", "lightrag", batch=FIFTH_BATCH),
    _app("astrbot==4.29.3", "astrbot", batch=FIFTH_BATCH),
    _app("langbot==4.11.2", "src/langbot", batch=FIFTH_BATCH),
    _app("edx-enterprise==8.18.0", "enterprise", "integrated_channels", "consent", batch=FIFTH_BATCH),
    _app("openwisp-notifications==1.3", "openwisp_notifications", batch=FIFTH_BATCH),
    _app("openwisp-firmware-upgrader==1.3.1", "openwisp_firmware_upgrader", batch=FIFTH_BATCH),
    _app("ephios==0.27.1", "src/ephios", batch=FIFTH_BATCH),
    _app("byro==2026.4.0", "byro", batch=FIFTH_BATCH),
    # Added later on 2026-12-05 (split on their own): a Flask + Celery newsroom platform, a Flask
    # release monitor with its own scheduler, Django applications (an association CMS, a helpdesk)
    # and an asyncio Matrix bridge.
    _app("superdesk-core==2.5.3", "superdesk", "apps", "content_api", batch=SIXTH_BATCH),
    _app("anitya==2.3.0", "anitya", batch=SIXTH_BATCH),
    _app("tendenci==16.30", "tendenci", batch=SIXTH_BATCH),
    _app("django-helpdesk==2.6.1", "src/helpdesk", batch=SIXTH_BATCH),
    _app("mautrix-facebook==0.5.1", "mautrix_facebook", "maufbapi", batch=SIXTH_BATCH),
    # Added last on 2026-12-05 (split on their own): Django + Celery apps (an annotation tool, a
    # monitoring-rule manager), a FastAPI server with RQ jobs, a Flask authentication server with a
    # huey queue, and two asyncio Matrix bridges.
    _app("doccano==1.8.4", "backend", batch=SEVENTH_BATCH),
    _app("argilla-server==2.8.0", "src/argilla_server", batch=SEVENTH_BATCH),
    _app("promgen==0.61.0", "promgen", batch=SEVENTH_BATCH),
    _app("privacyidea==3.14", "privacyidea", batch=SEVENTH_BATCH),
    _app("mautrix-googlechat==0.5.2", "mautrix_googlechat", batch=SEVENTH_BATCH),
    _app("mautrix-instagram==0.3.1", "mautrix_instagram", "mauigpapi", batch=SEVENTH_BATCH),
    # eighth batch: asyncio LLM gateways and agents, a Matrix/XMPP-style gateway, a chat-bot
    # framework run as a server, CI schedulers with threads and ZooKeeper, a media tagger's
    # thread pipeline, a media player shim, an Invenio module with Celery tasks
    # litellm: 214 BG602 findings; a seeded random 60 were judged first (random.Random("2026-12-05d
    # litellm BG602").sample), the other 154 later (labels 2026-12-05/s23n*)
    _app("litellm==1.110.2", "litellm", batch=EIGHTH_BATCH),
    _app("skyvern==1.0.56", "skyvern", batch=EIGHTH_BATCH),
    _app("gpt-researcher==0.16.1", "gpt_researcher", batch=EIGHTH_BATCH),
    _app("slidge==0.5.3", "slidge", batch=EIGHTH_BATCH),
    _app("rasa==3.6.21", "rasa", batch=EIGHTH_BATCH),
    _app("zuul==14.3.0", "zuul", batch=EIGHTH_BATCH),
    _app("nodepool==11.0.0", "nodepool", batch=EIGHTH_BATCH),
    _app("beets==2.14.1", "beets", "beetsplug", batch=EIGHTH_BATCH),
    _app("jellyfin-mpv-shim==3.3.0", "jellyfin_mpv_shim", batch=EIGHTH_BATCH),
    _app("invenio-rdm-records==36.0.0", "invenio_rdm_records", batch=EIGHTH_BATCH),
    # ninth batch, chosen by kind before any run (a Lightning wallet, Django + Celery document and
    # repository managers, a 3D-printer server, an archiver on huey, a trading framework, a P2P
    # client, backup and game-server daemons)
    _app("lnbits==1.6.2", "lnbits", batch=NINTH_BATCH),
    _app("mayan-edms==4.12.2", "mayan", batch=NINTH_BATCH),
    _app("octoprint==1.11.8", "src/octoprint", batch=NINTH_BATCH),
    _app("archivebox==0.9.73", "archivebox", batch=NINTH_BATCH),
    _app("kallithea==0.7.0", "kallithea", batch=NINTH_BATCH),
    _app("pulpcore==3.123.1", "pulpcore", batch=NINTH_BATCH),
    _app("vnpy==4.5.0", "vnpy", batch=NINTH_BATCH),
    _app("tribler==7.13.1", "src/tribler", batch=NINTH_BATCH),
    _app("pghoard==2.1.0", "pghoard", batch=NINTH_BATCH),
    _app("mcdreforged==2.16.2", "mcdreforged", batch=NINTH_BATCH),
    # tenth batch, chosen by kind before any run: asyncio applications above all (a network
    # emulator's server, crawlers and a browser agent, a workflow orchestrator, a notebook server,
    # a market-data feed handler, two Matrix bridges, a Telegram uploader) and a Django + Celery shop
    _app("gns3-server==3.0.6", "gns3server", batch=TENTH_BATCH),
    _app("crawl4ai==0.9.5", "crawl4ai", batch=TENTH_BATCH),
    _app("browser-use==0.13.14", "browser_use", batch=TENTH_BATCH),
    _app("prefect==3.9.1", "src/prefect", batch=TENTH_BATCH),
    _app("voila==0.5.13", "voila", batch=TENTH_BATCH),
    _app("cryptofeed==3.0.1", "cryptofeed", batch=TENTH_BATCH),
    _app("mautrix-twitter==0.1.8", "mautrix_twitter", "mautwitdm", batch=TENTH_BATCH),
    _app("mautrix-signal==0.4.3", "mautrix_signal", "mausignald", batch=TENTH_BATCH),
    _app("telegram-upload==0.7.1", "telegram_upload", batch=TENTH_BATCH),
    _app("saleor==2.10.1", "saleor", batch=TENTH_BATCH),
    # eleventh batch, chosen by kind before any run: Django + Celery applications and job plugins
    # (a dose-monitoring service, a network-topology collector, Pulp's RPM and container plugins,
    # two Nautobot apps of jobs), a threat-intelligence bot pipeline, an alert server's housekeeping
    _app("openrem==0.10.0", "openrem", batch=ELEVENTH_BATCH),
    _app("intelmq==3.5.0", "intelmq", batch=ELEVENTH_BATCH),
    _app("alerta-server==9.1.0", "alerta", batch=ELEVENTH_BATCH),
    _app("openwisp-network-topology==1.3.1", "openwisp_network_topology", batch=ELEVENTH_BATCH),
    _app("pulp-rpm==3.39.4", "pulp_rpm", batch=ELEVENTH_BATCH),
    _app("nautobot-golden-config==3.0.8", "nautobot_golden_config", batch=ELEVENTH_BATCH),
    _app("pulp-container==2.30.0", "pulp_container", batch=ELEVENTH_BATCH),
    _app("nautobot-device-lifecycle-mgmt==4.2.1", "nautobot_device_lifecycle_mgmt", batch=ELEVENTH_BATCH),
    # twelfth batch, chosen by kind before any run: asyncio applications above all (an agent
    # server, an MQTT broker, a kernel gateway, a database monitor, a music player's server, an LLM
    # serving controller and workers, a flow builder's server, two Matrix clients and bots), thread
    # applications (a Dropbox client, a package index server, a downloader), and asyncio
    # frameworks whose code runs as the worker (voice-agent pipelines, a cloud client, Modbus)
    _app("letta==0.16.8", "letta", batch=TWELFTH_BATCH),
    _app("amqtt==0.12.1", "amqtt", batch=TWELFTH_BATCH),
    _app("jupyter-enterprise-gateway==3.3.0", "enterprise_gateway", batch=TWELFTH_BATCH),
    _app("dolphie==6.18.0", "dolphie", batch=TWELFTH_BATCH),
    _app("feeluown==5.1.2", "feeluown", batch=TWELFTH_BATCH),
    _app("fschat==0.2.36", "fastchat", batch=TWELFTH_BATCH),
    _app("langflow-base==0.0.96", "langflow", batch=TWELFTH_BATCH),
    _app("matrix-reminder-bot==0.4.0", "matrix_reminder_bot", batch=TWELFTH_BATCH),
    _app("matrix-commander==8.0.6", "matrix_commander", batch=TWELFTH_BATCH),
    _app("maestral==1.9.6", "src/maestral", batch=TWELFTH_BATCH),
    _app("devpi-server==6.20.3", "devpi_server", batch=TWELFTH_BATCH),
    _app("ytdl-sub==2026.10.27", "src/ytdl_sub", batch=TWELFTH_BATCH),
    # thirteenth batch, chosen by kind before any run: Django, Flask and Pulp applications and
    # plugins whose work runs in Celery, RQ or their framework's tasks (a federated music server,
    # CKAN's harvester and data loader, CKAN's DCAT harvesters, an Invenio job scheduler, a
    # Nautobot app of sync jobs, Open edX's assessment service, Pulp's Ansible plugin)
    _app("funkwhale-api==1.2.8", "funkwhale_api", batch=THIRTEENTH_BATCH),
    _app("ckanext-harvest==1.6.3", "ckanext", batch=THIRTEENTH_BATCH),
    _app("ckanext-xloader==2.6.0", "ckanext", batch=THIRTEENTH_BATCH),
    _app("ckanext-dcat==2.4.4", "ckanext", batch=THIRTEENTH_BATCH),
    _app("invenio-jobs==11.1.0", "invenio_jobs", batch=THIRTEENTH_BATCH),
    _app("nautobot-ssot==4.7.0", "nautobot_ssot", batch=THIRTEENTH_BATCH),
    _app("ora2==7.1.1", "openassessment", batch=THIRTEENTH_BATCH),
    _app("pulp-ansible==0.30.3", "pulp_ansible", batch=THIRTEENTH_BATCH),
    # fourteenth batch, chosen by kind before any run: applications whose jobs are classes or run
    # through a framework's task dispatch (Nautobot apps of jobs: device onboarding, chat-ops,
    # data validation, firewall models; Pulp's Python and Debian plugins; Koji's task daemon
    # library; a NetBox DNS plugin)
    _app("nautobot-device-onboarding==5.6.0", "nautobot_device_onboarding", batch=FOURTEENTH_BATCH),
    _app("nautobot-chatops==4.1.0", "nautobot_chatops", batch=FOURTEENTH_BATCH),
    _app("nautobot-data-validation-engine==3.4.1", "nautobot_data_validation_engine", batch=FOURTEENTH_BATCH),
    _app("nautobot-firewall-models==3.0.1", "nautobot_firewall_models", batch=FOURTEENTH_BATCH),
    _app("pulp-python==3.37.1", "pulp_python", batch=FOURTEENTH_BATCH),
    _app("pulp-deb==3.9.1", "pulp_deb", batch=FOURTEENTH_BATCH),
    _app("koji==1.36.1", "koji", "cli/koji_cli", batch=FOURTEENTH_BATCH),
    _app("netbox-dns==0.17.0", "netbox_dns", batch=FOURTEENTH_BATCH),
    # fifteenth batch, chosen by kind before any run: asyncio applications above all (a notebook job
    # scheduler, terminal apps with background workers: a SQL IDE, an HTTP client, an LLM chat; a
    # proxy server, a BLE-to-MQTT gateway, two coding agents, an LLM shell assistant, a Jupyter
    # proxy extension) and asyncio frameworks whose code runs as the worker (a chat-bot framework,
    # an agent runtime, a message-broker framework, an SMTP server)
    _app("jupyter-scheduler==2.9.0", "jupyter_scheduler", batch=FIFTEENTH_BATCH),
    _app("harlequin==2.9.0", "src/harlequin", batch=FIFTEENTH_BATCH),
    _app("posting==2.9.2", "src/posting", batch=FIFTEENTH_BATCH),
    _app("elia-chat==1.9.0", "elia_chat", batch=FIFTEENTH_BATCH),
    _app("proxy-py==2.4.9", "proxy", batch=FIFTEENTH_BATCH),
    _app("ble2mqtt==0.2.5", "ble2mqtt", batch=FIFTEENTH_BATCH),
    _app("aider-chat==0.86.2", "aider", batch=FIFTEENTH_BATCH),
    _app("open-interpreter==0.4.3", "interpreter", batch=FIFTEENTH_BATCH),
    _app("gptme==0.35.1", "gptme", batch=FIFTEENTH_BATCH),
    _app("jupyter-server-proxy==4.6.0", "jupyter_server_proxy", batch=FIFTEENTH_BATCH),
    # sixteenth batch, chosen by kind before any run: applications whose jobs are Celery tasks,
    # threads or a project's own worker (a penetration-test platform and its agent dispatcher, an
    # authorization-policy server, a Dask cluster gateway, a crawler daemon, an ERP server, a data
    # integration CLI, threat-intel modules, chat bots, two Open edX apps, a hydrology web platform,
    # an archival pipeline, an error tracker with its own task queue, an AWS console, an install
    # server, a media transcoder, an Ansible reporting server)
    _app("faradaysec==5.25.2", "faraday", batch=SIXTEENTH_BATCH),
    _app("faraday-agent-dispatcher==3.9.1", "faraday_agent_dispatcher", batch=SIXTEENTH_BATCH),
    _app("opal-server==0.9.9", "opal_server", batch=SIXTEENTH_BATCH),
    _app("dask-gateway-server==2026.3.0", "dask_gateway_server", batch=SIXTEENTH_BATCH),
    _app("scrapyd==1.6.0", "scrapyd", batch=SIXTEENTH_BATCH),
    _app("trytond==8.2.1", "trytond", batch=SIXTEENTH_BATCH),
    _app("meltano==4.4.1", "src/meltano", batch=SIXTEENTH_BATCH),
    _app("misp-modules==3.1.1", "misp_modules", batch=SIXTEENTH_BATCH),
    _app("zulip-bots==0.9.1", "zulip_bots", batch=SIXTEENTH_BATCH),
    _app("edx-proctoring==6.1.4", "edx_proctoring", batch=SIXTEENTH_BATCH),
    _app("edxval==5.0.1", "edxval", batch=SIXTEENTH_BATCH),
    _app("tethys-platform==4.6.1", "tethys_apps", "tethys_cli", "tethys_compute", "tethys_portal",
         "tethys_gizmos", batch=SIXTEENTH_BATCH),
    _app("a3m==0.8.1", "a3m", batch=SIXTEENTH_BATCH),
    _app("bugsink==2.6.2", "bugsink", "snappea", "bsmain", "issues", "events", "projects", "users",
         "teams", "files", "alerts", "ingest", "phonehome", "releases", "tags", "performance",
         "sentry", "compat", "api", batch=SIXTEENTH_BATCH),
    _app("consoleme==1.4.0", "consoleme", batch=SIXTEENTH_BATCH),
    _app("cobbler==4.0.0b7", "cobbler", batch=SIXTEENTH_BATCH),
    _app("unmanic==0.4.1", "unmanic", batch=SIXTEENTH_BATCH),
    _app("ara==1.8.0", "ara", batch=SIXTEENTH_BATCH),
    # seventeenth batch, chosen by kind before any run: services whose jobs are Celery tasks, message
    # consumers, threads or daemons (an on-demand compose service, a module build service, a
    # notification service, a Q&A site, a release monitor, a build backend, a badge awarder, a
    # metasearch engine, a PostgreSQL backup manager, a PostgreSQL HA daemon, a PyPI mirror, a
    # process manager)
    _app("odcs==0.9.2", "src/odcs", batch=SEVENTEENTH_BATCH),
    _app("module-build-service==3.9.2", "module_build_service", batch=SEVENTEENTH_BATCH),
    _app("fmn==3.4.0", "fmn", batch=SEVENTEENTH_BATCH),
    _app("askbot==0.13.0", "askbot", batch=SEVENTEENTH_BATCH),
    _app("the-new-hotness==1.5.0", "hotness", batch=SEVENTEENTH_BATCH),
    _app("copr-backend==2.11", "copr_backend", batch=SEVENTEENTH_BATCH),
    _app("fedbadges==2.3.0", "fedbadges", batch=SEVENTEENTH_BATCH),
    _app("searx==0.17.0", "searx", batch=SEVENTEENTH_BATCH),
    _app("barman==3.20.1", "src/barman", batch=SEVENTEENTH_BATCH),
    _app("patroni==4.1.5", "patroni", batch=SEVENTEENTH_BATCH),
    _app("bandersnatch==8.2.0", "src/bandersnatch", "src/bandersnatch_filter_plugins", "src/bandersnatch_storage_plugins",
         batch=SEVENTEENTH_BATCH),
    _app("circus==0.19.0", "circus", batch=SEVENTEENTH_BATCH),
    # eighteenth batch, chosen by kind before any run: application modules whose jobs are Celery or
    # RQ tasks (CKAN extensions: a spatial harvester, a data validator, an analytics reporter;
    # InvenioRDM modules: GitHub releases, webhooks, usage statistics, vocabularies, notifications,
    # communities, file storage; Open edX apps: event routing to learning record stores, name
    # verification)
    _app("ckanext-spatial==2.3.2", "ckanext", batch=EIGHTEENTH_BATCH),
    _app("ckanext-validation==2.2.0", "ckanext", batch=EIGHTEENTH_BATCH),
    _app("ckanext-googleanalytics==2.5.1", "ckanext", batch=EIGHTEENTH_BATCH),
    _app("invenio-github==7.1.2", "invenio_github", batch=EIGHTEENTH_BATCH),
    _app("invenio-webhooks==4.0.2", "invenio_webhooks", batch=EIGHTEENTH_BATCH),
    _app("invenio-stats==7.0.2", "invenio_stats", batch=EIGHTEENTH_BATCH),
    _app("invenio-vocabularies==14.5.0", "invenio_vocabularies", batch=EIGHTEENTH_BATCH),
    _app("invenio-notifications==2.0.2", "invenio_notifications", batch=EIGHTEENTH_BATCH),
    _app("invenio-communities==28.3.0", "invenio_communities", batch=EIGHTEENTH_BATCH),
    _app("invenio-files-rest==3.5.1", "invenio_files_rest", batch=EIGHTEENTH_BATCH),
    _app("edx-event-routing-backends==10.1.0", "src/event_routing_backends", batch=EIGHTEENTH_BATCH),
    _app("edx-name-affirmation==3.0.2", "edx_name_affirmation", batch=EIGHTEENTH_BATCH),
    # nineteenth batch, chosen by kind before any run: daemons and services with threads, asyncio or
    # worker loops (a scientific data manager's daemons, two workflow schedulers, Mopidy music
    # backends run as actors, a Proxmox metrics exporter, a backup orchestrator); the model-serving
    # frameworks and the Ansible runner are libraries, below
    _app("rucio==38.6.4", "lib/rucio", batch=NINETEENTH_BATCH),
    _app("cylc-flow==8.7.0", "cylc", batch=NINETEENTH_BATCH),
    _app("autosubmit==4.1.17.1", "autosubmit", batch=NINETEENTH_BATCH),
    _app("mopidy-youtube==4.0.2", "mopidy_youtube", batch=NINETEENTH_BATCH),
    _app("mopidy-tidal==0.3.13", "mopidy_tidal", batch=NINETEENTH_BATCH),
    _app("mopidy-jellyfin==1.1.0", "mopidy_jellyfin", batch=NINETEENTH_BATCH),
    _app("prometheus-pve-exporter==3.10.2", "src/pve_exporter", batch=NINETEENTH_BATCH),
    _app("borgmatic==2.1.10", "borgmatic", batch=NINETEENTH_BATCH),
    # twentieth batch, chosen by kind before any run: small home and media applications whose threads
    # or tasks talk to other services (a Plex player shim, a Trakt scrobbler, a podcast client, an
    # MQTT bridge for GPIO and sensors, a file-sharing server, a camera backup daemon, a torrent
    # cleaner, two MQTT bridges for a solar inverter and a weather station)
    _app("plex-mpv-shim==1.11.0", "plex_mpv_shim", batch=TWENTIETH_BATCH),
    _app("trakt-scrobbler==1.9.0b1", "trakt_scrobbler", batch=TWENTIETH_BATCH),
    _app("castero==0.9.5", "castero", batch=TWENTIETH_BATCH),
    _app("mqtt-io==2.7.0", "mqtt_io", batch=TWENTIETH_BATCH),
    _app("onionshare-cli==2.7", "onionshare_cli", batch=TWENTIETH_BATCH),
    _app("unifi-protect-backup==0.14.3", "unifi_protect_backup", batch=TWENTIETH_BATCH),
    _app("autoremove-torrents==1.5.4", "autoremovetorrents", batch=TWENTIETH_BATCH),
    _app("solaredge2mqtt==3.1.0", "solaredge2mqtt", batch=TWENTIETH_BATCH),
    _app("ecowitt2mqtt==2026.1.0", "ecowitt2mqtt", batch=TWENTIETH_BATCH),
    # twenty-first batch, chosen by kind before any run: a document manager with Celery, a comment
    # server with its own mail thread, a knowledge base with background indexing, voice-assistant
    # services (Rhasspy's web server, OpenVoiceOS's core, audio and listener services, Kalliope)
    _app("papermerge-core==2.1.5", "papermerge", batch=TWENTY_FIRST_BATCH),
    _app("isso==0.14.0", "isso", batch=TWENTY_FIRST_BATCH),
    _app("archivy==1.7.7", "archivy", batch=TWENTY_FIRST_BATCH),
    _app("rhasspy-server-hermes==2.5.10", "rhasspyserver_hermes", batch=TWENTY_FIRST_BATCH),
    _app("ovos-core==3.7.5a1", "ovos_core", batch=TWENTY_FIRST_BATCH),
    _app("ovos-audio==2.2.9a1", "ovos_audio", batch=TWENTY_FIRST_BATCH),
    _app("ovos-dinkum-listener==0.11.3a1", "ovos_dinkum_listener", batch=TWENTY_FIRST_BATCH),
    _app("kalliope==0.7.2", "kalliope", batch=TWENTY_FIRST_BATCH),
    # twenty-second batch, chosen by kind before any run: a privacy platform with Celery and SaaS
    # connectors (fides), Django and Celery web apps (GeoNode, MediaGoblin, Postorius), an
    # ecash wallet and mint and a Nostr relay (asyncio), a backup web UI with
    # scheduled jobs, a CalDAV server, a music tagger with worker threads, small bots and uploaders
    _app("ethyca-fides==2.86.2", "src/fides", batch=TWENTY_SECOND_BATCH),
    _app("geonode==2.10", "geonode", batch=TWENTY_SECOND_BATCH),
    _app("mediagoblin==0.9.0", "mediagoblin", batch=TWENTY_SECOND_BATCH),
    _app("postorius==1.3.13", "src/postorius", batch=TWENTY_SECOND_BATCH),
    _app("cashu==0.21.0", "cashu", batch=TWENTY_SECOND_BATCH),
    _app("nostr-relay==1.14", "nostr_relay", batch=TWENTY_SECOND_BATCH),
    _app("rdiffweb==7.2.0", "rdiffweb", batch=TWENTY_SECOND_BATCH),
    _app("radicale==3.9.0", "radicale", batch=TWENTY_SECOND_BATCH),
    _app("picard==3.0.2", "picard", batch=TWENTY_SECOND_BATCH),
    _app("tgtg==0.19.0", "tgtg", batch=TWENTY_SECOND_BATCH),
    _app("tubeup==2026.5.8", "tubeup", batch=TWENTY_SECOND_BATCH),
    # twenty-third batch, chosen by kind before any run: a Django + Celery monitoring app whose
    # checks call other services (Cabot), a Flask + Celery interview server (docassemble), a data
    # pipeline server with schedulers (Mage), Graphite's Twisted daemon (carbon), a honeypot daemon,
    # asyncio daemons (an MTA-STS resolver, a CalDAV server), a music server with a scanner thread,
    # a 3D-printer host with serial threads, a Tor monitor
    _app("cabot==0.11.12", "cabot", batch=TWENTY_THIRD_BATCH),
    _app("docassemble.webapp==1.10.14", "docassemble", batch=TWENTY_THIRD_BATCH),
    _app("mage-ai==0.9.80", "mage_ai", batch=TWENTY_THIRD_BATCH),
    _app("carbon==1.1.10", "lib/carbon", batch=TWENTY_THIRD_BATCH),
    _app("opencanary==0.9.10", "opencanary", batch=TWENTY_THIRD_BATCH),
    _app("postfix-mta-sts-resolver==1.5.1", "postfix_mta_sts_resolver", batch=TWENTY_THIRD_BATCH),
    _app("xandikos==0.4.10", "xandikos", batch=TWENTY_THIRD_BATCH),
    _app("supysonic==0.7.9", "supysonic", batch=TWENTY_THIRD_BATCH),
    _app("printrun==2.2.0", "printrun", batch=TWENTY_THIRD_BATCH),
    _app("nyx==2.1.0", "nyx", batch=TWENTY_THIRD_BATCH),
    # twenty-fourth batch, chosen by kind before any run: a Bitcoin wallet server whose threads call
    # the node's RPC (Specter), a Django + Celery patch-status server (patchman), a crawler with
    # scheduler, fetcher and processor queues (pyspider), Twisted daemons (Tahoe-LAFS, the
    # Buildbot worker), a data platform's daemon with schedules and sensors (dagster)
    _app("cryptoadvance.specter==2.1.11", "src/cryptoadvance", batch=TWENTY_FOURTH_BATCH),
    _app("patchman==4.0.21", "arch", "domains", "errata", "hosts", "modules", "operatingsystems", "packages", "patchman",
         "reports", "repos", "security", "util", batch=TWENTY_FOURTH_BATCH),
    _app("pyspider==0.3.10", "pyspider", batch=TWENTY_FOURTH_BATCH),
    _app("tahoe-lafs==1.20.0", "src/allmydata", batch=TWENTY_FOURTH_BATCH),
    _app("buildbot-worker==4.3.0", "buildbot_worker", batch=TWENTY_FOURTH_BATCH),
    _app("dagster==1.13.29", "dagster", batch=TWENTY_FOURTH_BATCH),
    # twenty-fifth batch, chosen by kind before any run: NetBox plugins whose background jobs sync
    # with another system's API (LibreNMS, Slurp'it, Forward Networks, Proxmox)
    _app("netbox-librenms-plugin==0.4.8", "netbox_librenms_plugin", batch=TWENTY_FIFTH_BATCH),
    _app("slurpit-netbox==1.4.18", "src/slurpit_netbox", batch=TWENTY_FIFTH_BATCH),
    _app("forward-netbox==3.0.8", "forward_netbox", batch=TWENTY_FIFTH_BATCH),
    _app("netbox-proxbox==0.0.29.post6", "netbox_proxbox", "proxbox_scheduler", batch=TWENTY_FIFTH_BATCH),
    # twenty-sixth batch, chosen by kind before any run: applications whose background work calls
    # other services (forge and web APIs, mail, MQTT, Zabbix, Elasticsearch alerts)
    _app("swh-lister==7.4.0", "swh/lister", batch=TWENTY_SIXTH_BATCH),
    _app("swh-deposit==3.0.1", "swh/deposit", batch=TWENTY_SIXTH_BATCH),
    _app("elastalert2==2.31.0", "elastalert", batch=TWENTY_SIXTH_BATCH),
    _app("scrapydweb==1.6.0", "scrapydweb", batch=TWENTY_SIXTH_BATCH),
    _app("mqttwarn==0.36.1", "mqttwarn", batch=TWENTY_SIXTH_BATCH),
    _app("weewx==5.5.2", "src", batch=TWENTY_SIXTH_BATCH),
    _app("aprsd==4.2.4", "aprsd", batch=TWENTY_SIXTH_BATCH),
    _app("HABApp==26.10.1", "src/HABApp", batch=TWENTY_SIXTH_BATCH),
    _app("django-spirit==0.14.3", "spirit", batch=TWENTY_SIXTH_BATCH),
    _app("brozzler==1.9.6", "brozzler", batch=TWENTY_SIXTH_BATCH),
    _app("udata-hydra==2.4.2", "udata_hydra", batch=TWENTY_SIXTH_BATCH),
    _app("invenio-app-ils==9.0.1", "invenio_app_ils", batch=TWENTY_SIXTH_BATCH),
    _app(
        "django-crm-admin==3.1.0",
        "analytics", "chat", "common", "crm", "help", "massmail", "quality", "settings", "tasks", "voip", "webcrm",
        batch=TWENTY_SIXTH_BATCH,
    ),
    _app("nbxsync==1.0.5", "nbxsync", batch=TWENTY_SIXTH_BATCH),
    _app("INGInious==0.9.2", "inginious", batch=TWENTY_SIXTH_BATCH),
    # twenty-seventh batch, chosen by kind before any run: asyncio services (bridges, gateways,
    # scanners, crawlers, servers) whose own code starts tasks and handles their cancellation (the
    # finder counted `except CancelledError` handlers: chosen for code BG101/BG102/BG105 read)
    _app("mmrelay==1.4.1", "src/mmrelay", batch=TWENTY_SEVENTH_BATCH),
    _app("bbot==3.0.2", "bbot", batch=TWENTY_SEVENTH_BATCH),
    _app("thingsboard-gateway==3.8.5", "thingsboard_gateway", batch=TWENTY_SEVENTH_BATCH),
    _app("pyobs-core==2.19.1", "pyobs", batch=TWENTY_SEVENTH_BATCH),
    _app("hbmqtt==0.9.6", "hbmqtt", "scripts", batch=TWENTY_SEVENTH_BATCH),
    _app("textual-web==0.8.0", "src/textual_web", batch=TWENTY_SEVENTH_BATCH),
    _app("mlserver==1.7.1", "mlserver", batch=TWENTY_SEVENTH_BATCH),
    _app("maigret==0.6.6", "maigret", batch=TWENTY_SEVENTH_BATCH),
    _app("kirara-ai==3.2.0", "kirara_ai", batch=TWENTY_SEVENTH_BATCH),
    _app("cyberdrop-dl-patched==10.14.0", "cyberdrop_dl", batch=TWENTY_SEVENTH_BATCH),
    _app("sml2mqtt==3.7.0", "src/sml2mqtt", batch=TWENTY_SEVENTH_BATCH),
    _app("scriptworker==63.6.1", "src/scriptworker", batch=TWENTY_SEVENTH_BATCH),
    _app("wapiti3==3.3.2", "wapitiCore", batch=TWENTY_SEVENTH_BATCH),
    # twenty-eighth batch, chosen by kind before any run: applications and platform plugins whose
    # background jobs call web APIs, webhooks or mail; the finder preferred projects where a grep
    # showed HTTP calls without a timeout argument in that code (chosen for code BG203 reads)
    _app("fittrackee==1.3.6", "fittrackee", batch=TWENTY_EIGHTH_BATCH),
    _app("malojaserver==3.2.9", "maloja", batch=TWENTY_EIGHTH_BATCH),
    _app("monasca-notification==9.0.0", "monasca_notification", batch=TWENTY_EIGHTH_BATCH),
    _app("python-watcher==17.0.0", "watcher", batch=TWENTY_EIGHTH_BATCH),
    _app("appenlight==2.0.0rc1", "src/appenlight", batch=TWENTY_EIGHTH_BATCH),
    _app("indico-plugin-feed-sync==0.1.1", "indico_feed_sync", batch=TWENTY_EIGHTH_BATCH),
    _app("pretix-matrix-inviter==1.9.3", "pretix_matrix_inviter", batch=TWENTY_EIGHTH_BATCH),
    _app("pretix-enablebanking==1.0.4", "src/pretix_enablebanking", batch=TWENTY_EIGHTH_BATCH),
    _app("pretalx-media-ccc-de==1.8.0", "pretalx_media_ccc_de", batch=TWENTY_EIGHTH_BATCH),
    _app("taiga-contrib-slack==5.5.1", "taiga_contrib_slack", batch=TWENTY_EIGHTH_BATCH),
    _app("ckanext-fuseki==1.1.0", "ckanext/fuseki", batch=TWENTY_EIGHTH_BATCH),
    _app("ckanext-zenodo==0.1.30", "ckanext/zenodo", batch=TWENTY_EIGHTH_BATCH),
    _app("netbox-unifi-sync==0.3.25", "netbox_unifi_sync", batch=TWENTY_EIGHTH_BATCH),
    _app("qbit-manage==4.14.0", "modules", batch=TWENTY_EIGHTH_BATCH),
    _app("urlwatch==2.29", "lib/urlwatch", batch=TWENTY_EIGHTH_BATCH),
    _app("trytond-edocument-peppol-peppyrus==8.2.0", ".", batch=TWENTY_EIGHTH_BATCH),
    # twenty-ninth batch, chosen by kind before any run: Django applications that send Celery or RQ
    # jobs from code run in database transactions (the finder counted files with both
    # transaction.atomic or ATOMIC_REQUESTS and .delay()/.apply_async()/enqueue: chosen for code
    # BG604 reads), and asyncio services whose own code handles the cancellation of its tasks (the
    # finder counted `except CancelledError` handlers: chosen for code BG101/BG105 read)
    _app("waldur-mastermind==4.5.1", "src", batch=TWENTY_NINTH_BATCH),
    _app("squad==1.98", "squad", batch=TWENTY_NINTH_BATCH),
    _app("satnogs-network==1.137", "network", "auth0login", batch=TWENTY_NINTH_BATCH),
    _app("satnogs-db==1.78", "db", batch=TWENTY_NINTH_BATCH),
    _app("scancodeio==38.2.0", "scanpipe", "scancodeio", batch=TWENTY_NINTH_BATCH),
    _app("froide==5.0.0", "froide", batch=TWENTY_NINTH_BATCH),
    _app("django-ca==3.2.0", "ca", batch=TWENTY_NINTH_BATCH),
    _app("kegbot==1.2.3", "pykeg", batch=TWENTY_NINTH_BATCH),
    _app("netboxlabs-netbox-branching==1.2.2", "netbox_branching", batch=TWENTY_NINTH_BATCH),
    _app("aleksis-core==4.1.0.dev2", "aleksis", batch=TWENTY_NINTH_BATCH),
    _app("polemarch==3.0.3", "polemarch", batch=TWENTY_NINTH_BATCH),
    _app("trinity==0.1.0a37", "trinity", "p2p", batch=TWENTY_NINTH_BATCH),
    _app("xinference==4.1.0", "xinference", batch=TWENTY_NINTH_BATCH),
    _app("whisperlivekit==0.2.26", "whisperlivekit", batch=TWENTY_NINTH_BATCH),
    _app("llama-stack==0.7.3", "src/llama_stack", "src/llama_stack_api", batch=TWENTY_NINTH_BATCH),
    _app("covalent==0.241.0rc0", "covalent", "covalent_dispatcher", "covalent_ui", batch=TWENTY_NINTH_BATCH),
    _app("basic-memory==0.24.1", "src/basic_memory", batch=TWENTY_NINTH_BATCH),
    _app("nekro-agent==2.4.0", "nekro_agent", "plugins", batch=TWENTY_NINTH_BATCH),
    _app("maibot==1.3.15", "src", batch=TWENTY_NINTH_BATCH),
    _app("proxybroker==0.3.2", "proxybroker", batch=TWENTY_NINTH_BATCH),
    _app("mqttools==0.50.0", "mqttools", batch=TWENTY_NINTH_BATCH),
    # thirtieth batch, chosen by kind before any run, as the twenty-ninth: asyncio services whose
    # own code catches its tasks' cancellation inside while loops (the finder counted them: chosen
    # for code BG101/BG105 read), and Django platform plugins sending jobs from transactions (BG604)
    _app("nanobot-ai==0.3.5", "nanobot", batch=THIRTIETH_BATCH),
    _app("skypilot==0.14.1", "sky", batch=THIRTIETH_BATCH),
    _app("copaw==1.0.2", "src/copaw", batch=THIRTIETH_BATCH),
    _app("ccproxy-api==0.2.10", "ccproxy", batch=THIRTIETH_BATCH),
    _app("g4f==8.8.6", "g4f", batch=THIRTIETH_BATCH),
    _app("blrec==2.0.0b5", "src/blrec", batch=THIRTIETH_BATCH),
    _app("hayhooks==2.1.0", "src/hayhooks", batch=THIRTIETH_BATCH),
    _app("xiaomusic==0.6.1", "xiaomusic", batch=THIRTIETH_BATCH),
    _app("ansible-rulebook==1.2.3", "ansible_rulebook", batch=THIRTIETH_BATCH),
    _app("dstack==0.22.5", "src/dstack", batch=THIRTIETH_BATCH),
    _app("netbox-orchestrator==26.10.1", "netbox_orchestrator", batch=THIRTIETH_BATCH),
    _app("ipfabric-netbox==6.3.0", "ipfabric_netbox", batch=THIRTIETH_BATCH),
    _app("pretix-event-analytics==2.3.2", "pretix_event_analytics", batch=THIRTIETH_BATCH),
    _app("pretix-wallet==1.7.4", "pretix_wallet", batch=THIRTIETH_BATCH),
    # thirty-first batch, chosen by kind before any run, as the thirtieth: asyncio services, daemons
    # and agents released in 2025-2026 whose own code catches asyncio.CancelledError inside while
    # loops (a finder counted at least 2 such handlers per project by parsing, not by any bgcheck
    # run: chosen for code BG101/BG105 read). Left out by size or kind before any run: hermes-agent
    # (675k lines), nautilus-trader (a trading platform, mostly library), mcp-contextforge-gateway
    # (an older release is in the recall set).
    _app("gpustack==2.3.0", "gpustack", batch=THIRTY_FIRST_BATCH),
    _app("fhempy==2.10.2", "FHEM/bindings/python/fhempy", batch=THIRTY_FIRST_BATCH),
    _app("aiomtec2mqtt==1.1.0", "aiomtec2mqtt", batch=THIRTY_FIRST_BATCH),
    _app("agent-chat-gateway==0.5.2", "gateway", batch=THIRTY_FIRST_BATCH),
    _app("aegra-api==0.11.0", "src/aegra_api", batch=THIRTY_FIRST_BATCH),
    _app("bedrock-server-manager==4.0.1", "src/bedrock_server_manager", batch=THIRTY_FIRST_BATCH),
    _app("mcp-memory-service==12.4.0", "src/mcp_memory_service", batch=THIRTY_FIRST_BATCH),
    _app("labgrid==26.0.1", "labgrid", batch=THIRTY_FIRST_BATCH),
    _app("code-puppy==0.0.946", "code_puppy", batch=THIRTY_FIRST_BATCH),
    _app("ha-mcp==8.7.0", "src/ha_mcp", batch=THIRTY_FIRST_BATCH),
    _app("praisonai==4.7.19", "praisonai", batch=THIRTY_FIRST_BATCH),
    _app("bluesky-queueserver==0.0.25", "src/bluesky_queueserver", batch=THIRTY_FIRST_BATCH),
    _app("fast-agent-mcp==0.10.48", "src/fast_agent", batch=THIRTY_FIRST_BATCH),
    _app("pr-agent==0.49.0", "pr_agent", batch=THIRTY_FIRST_BATCH),
    # thirty-second batch, chosen by kind before any run: Django applications and platform plugins
    # (NetBox, Alliance Auth, openIMIS, Workbench) whose own code sends Celery or RQ jobs (or NetBox
    # JobRunner jobs) from inside transaction.atomic, directly or through a helper, or in the
    # function that opens one (a finder counted the sends by parsing, not by any bgcheck run: chosen
    # for code BG604 reads). Left out before any run: bamboo-pipeline (a library).
    _app("django-crm==1.35.0", "accounts", "automation", "business_hours", "cases", "common", "contacts", "crm", "interactions", "invoices", "leads", "macros", "opportunity", "orders", "projects", "tasks", "webforms", "webhooks", batch=THIRTY_SECOND_BATCH),
    _app("devilry==6.7.1", "devilry", batch=THIRTY_SECOND_BATCH),
    _app("openimis-be-payroll==1.5.0", "payroll", batch=THIRTY_SECOND_BATCH),
    _app("wbfdm==1.67.6", "wbfdm", batch=THIRTY_SECOND_BATCH),
    _app("netbox-data-import==2.17.0", "netbox_data_import", batch=THIRTY_SECOND_BATCH),
    _app("netbox-fms==0.6.0", "netbox_fms", batch=THIRTY_SECOND_BATCH),
    _app("indy-hub==1.18.3", "indy_hub", batch=THIRTY_SECOND_BATCH),
    _app("university-core==0.1.0", "src/university", batch=THIRTY_SECOND_BATCH),
    _app("modoboa-amavis==1.5.1", "modoboa_amavis", batch=THIRTY_SECOND_BATCH),
    _app("ffew-fightlog==0.2.0", "fightlog", batch=THIRTY_SECOND_BATCH),
    _app("aa-discord-audit==0.1.0a16", "aa_discord_audit", batch=THIRTY_SECOND_BATCH),
    _app("aa-memberaudit==5.3.0", "memberaudit", batch=THIRTY_SECOND_BATCH),
    _app("allianceauth-corptools==3.5.1", "corptools", batch=THIRTY_SECOND_BATCH),
    _app("netboxlabs-netbox-custom-objects==0.7.1", "netbox_custom_objects", batch=THIRTY_SECOND_BATCH),
    _app("aa-structuretimers==3.2.0", "structuretimers", batch=THIRTY_SECOND_BATCH),
    # thirty-third batch, chosen by kind before any run: SQLAlchemy applications (Pyramid with a
    # request-wide transaction, FastAPI, Flask) whose own code sends Celery jobs in a function that
    # writes to the database before its commit (a finder counted them by parsing: chosen for code
    # BG604 reads; it found few such applications on PyPI).
    _app("endi==2026.4.7", "caerp", batch=THIRTY_THIRD_BATCH),
    _app("z3rno-server==0.22.3", "src/z3rno_server", batch=THIRTY_THIRD_BATCH),
    _app("timesketch==20261014", "timesketch", batch=THIRTY_THIRD_BATCH),
    # thirty-fourth batch, chosen by kind before any run, as the thirty-first: asyncio bots, bridges,
    # proxies, MQTT daemons and agent servers whose own code catches asyncio.CancelledError inside a
    # loop of a coroutine with a handler that neither raises, returns nor breaks (four finder
    # sessions tried about 1,400 PyPI names and parsed each sdist for that shape, with no bgcheck
    # run: chosen for code BG101 reads). Left out by size or kind before any run: ccbt (282k lines,
    # a 0.1.0), asyncua (343k lines, mostly generated), salt, faust (faust-streaming's older self),
    # async-channel (in OctoBot), mcp-contextforge-gateway (the recall set), magentic-ui (no sdist
    # code found).
    _app("anjani==2.14.21", "anjani", batch=THIRTY_FOURTH_BATCH),
    _app("bolna==0.11.9", "bolna", batch=THIRTY_FOURTH_BATCH),
    _app("conductarr==3.0.1", "conductarr", batch=THIRTY_FOURTH_BATCH),
    _app("envsbot==2.5.1", "bot", "core_plugins", "database", "plugins", "utils", batch=THIRTY_FOURTH_BATCH),
    _app("lumimqtt==1.0.19", "lumimqtt", batch=THIRTY_FOURTH_BATCH),
    _app("mcp-cli==0.20.1", "src/mcp_cli", batch=THIRTY_FOURTH_BATCH),
    _app("mcpo==0.0.20", "src/mcpo", batch=THIRTY_FOURTH_BATCH),
    _app("meshcore-cli==1.6.6", "src/meshcore_cli", batch=THIRTY_FOURTH_BATCH),
    _app("meshcore-proxy==0.5.0", "src/meshcore_proxy", batch=THIRTY_FOURTH_BATCH),
    _app("netproxy==0.3.1", "src/netproxy", batch=THIRTY_FOURTH_BATCH),
    _app("petals==2.2.0.post1", "src/petals", batch=THIRTY_FOURTH_BATCH),
    _app("pproxy2==2.3.2", "pproxy", batch=THIRTY_FOURTH_BATCH),
    _app("qworker==2.0.7", "qw", batch=THIRTY_FOURTH_BATCH),
    _app("rsstt==2.10.0", "src", batch=THIRTY_FOURTH_BATCH),
    _app("sigenergy2mqtt==2026.10.10", "src/sigenergy2mqtt", batch=THIRTY_FOURTH_BATCH),
    _app("updates2mqtt==1.14.4", "src/updates2mqtt", batch=THIRTY_FOURTH_BATCH),
    # thirty-seventh batch, the applications left on the thirty-fourth batch's lists (same screen, same
    # sessions' finder output, no bgcheck run before they were chosen). Left out by size before any
    # run: hermes-agent (722k lines in its sdist), aipager (113k lines in its package).
    _app("kimi-bridge==1.0.5", "src/kimi_bridge", batch=THIRTY_SEVENTH_BATCH),
    _app("summon-claude==1.1.0", "src/summon_claude", batch=THIRTY_SEVENTH_BATCH),
    _app("captain-nemo==0.4.74", "nemo", batch=THIRTY_SEVENTH_BATCH),
    _app("kestrel-channel-telegram==0.1.10", "kestrel_channel_telegram", batch=THIRTY_SEVENTH_BATCH),
    _app("openlama==0.1.954", "src/openlama", batch=THIRTY_SEVENTH_BATCH),
    _app("keycard-nostr-bunker==0.1.0", "keycard_nostr_bunker", batch=THIRTY_SEVENTH_BATCH),
    _app("rpi2home-assistant==2.3.6", "src/raspy2mqtt", batch=THIRTY_SEVENTH_BATCH),
    _app("cec2rs232==0.4.0", "cec2rs232", batch=THIRTY_SEVENTH_BATCH),
    _app("sendspin==9.0.0", "sendspin", batch=THIRTY_SEVENTH_BATCH),
    _app("twitter-space-downloader==1.4.1", "twitter_space_downloader", batch=THIRTY_SEVENTH_BATCH),
    _app("ipyparallel==9.2.0", "ipyparallel", batch=THIRTY_SEVENTH_BATCH),
    # thirty-ninth batch, chosen by kind before any run, as the thirty-fourth but from a new screen
    # (session 31): the PyPI names with bot, bridge, proxy, gateway, relay, daemon, worker, mqtt,
    # telegram, discord, websocket or asyncio in them, not tried before, with an sdist uploaded since
    # 2025 (4,992 sdists), parsed for BG101's shape (CancelledError caught in a loop of a coroutine by
    # a handler with no raise, return or break) or BG103's (return, break or continue in a coroutine's
    # `finally:`), with no bgcheck run. Taken: every hit that is an application (a service, daemon,
    # bot, proxy, gateway, worker or command-line tool; SDKs, libraries, frameworks and plugins left
    # out) with 2,000 to 140,000 lines in its sdist, its own package only (vendored code left out).
    # Left out before any run as copies of projects already here or in this batch: the hummingbot
    # forks, the nanobot forks (openbot-ai, ragnarbot-ai, nanobot-ai-tng, miu-bot, nanobot-desktop,
    # neobot-ai), praisonai-bot, deterministic-ai-gateway (dbl-gateway's package), lucent-voice-bridge.
    _app("pawbot-ai==0.8.1", "pawbot", batch=THIRTY_NINTH_BATCH),
    _app("neobot-app==2.0.1", "src/neobot_app", batch=THIRTY_NINTH_BATCH),
    _app("deep-worker==0.0.25", "deep_worker_cli", batch=THIRTY_NINTH_BATCH),
    _app("langbridge==0.1.0a3", "langbridge", batch=THIRTY_NINTH_BATCH),
    _app("prism-proxy==1.3.4", "src/prism", batch=THIRTY_NINTH_BATCH),
    _app("ershu-worker==1.0.0.post20260812", "src/ershu", batch=THIRTY_NINTH_BATCH),
    _app("soothe-daemon==1.2.3", "src/soothe_daemon", batch=THIRTY_NINTH_BATCH),
    _app("mlpal-gateway==0.2.5", "src/mlpal_assistants_service", batch=THIRTY_NINTH_BATCH),
    _app("proxym==0.1.126", "src/proxym", batch=THIRTY_NINTH_BATCH),
    _app("hermes-relay-tui==0.13.1", ".", batch=THIRTY_NINTH_BATCH),
    _app("polybot-trader==0.1.0", "src/polybot", batch=THIRTY_NINTH_BATCH),
    _app("clawbot-plus==2.2.2", "clawbot", "skills", batch=THIRTY_NINTH_BATCH),
    _app("backend-ai-storage-proxy==26.9.6", "ai", batch=THIRTY_NINTH_BATCH),
    _app("iflow-bot==0.4.6", "iflow_bot", batch=THIRTY_NINTH_BATCH),
    _app("iflow-mcp-homeassistant-ai-ha-mcp==6.6.1", "src/ha_mcp", batch=THIRTY_NINTH_BATCH),
    _app("voicebridge==0.0.3", "voicebridge", batch=THIRTY_NINTH_BATCH),
    _app("mokuro-bridge==1.0.2", "mokuro_bridge", batch=THIRTY_NINTH_BATCH),
    _app("mcp-manager-gateway==1.5.5", "src/mcp_manager", batch=THIRTY_NINTH_BATCH),
    _app("llm-relay==0.9.7", "src/llm_relay", batch=THIRTY_NINTH_BATCH),
    _app("cloudagent-daemon==0.6.8", "src/cloudagent_daemon", batch=THIRTY_NINTH_BATCH),
    _app("hermes-onebot-adapter==1.9.0", "onebot_adapter", batch=THIRTY_NINTH_BATCH),
    _app("aistudio-proxy==0.2.0", ".", batch=THIRTY_NINTH_BATCH),
    _app("nazar-bridge==0.7.40", "nazar_bridge", batch=THIRTY_NINTH_BATCH),
    _app("blobhub-worker==0.11.0", "src/blobhub_worker", batch=THIRTY_NINTH_BATCH),
    _app("nvd-claude-proxy==1.4.5", "src/nvd_claude_proxy", batch=THIRTY_NINTH_BATCH),
    _app("kiro-gateway==2.3.3", "kiro", batch=THIRTY_NINTH_BATCH),
    _app("vloex-mcp-proxy==0.5.2", "vloex_mcp_proxy", batch=THIRTY_NINTH_BATCH),
    _app("discord-cli-agent==0.13.0", "src/discli", batch=THIRTY_NINTH_BATCH),
    _app("trading-bot-x==0.1.1", ".", batch=THIRTY_NINTH_BATCH),
    _app("guscatalano-ai-proxy==0.2.0", "ai_proxy", batch=THIRTY_NINTH_BATCH),
    _app("dbl-gateway==1.0.1", "src/dbl_gateway", batch=THIRTY_NINTH_BATCH),
    _app("fastmcp-gateway==0.35.0", "src/fastmcp_gateway", batch=THIRTY_NINTH_BATCH),
    _app("ws-bom-robot-app==0.0.137", "ws_bom_robot_app", batch=THIRTY_NINTH_BATCH),
    _app("claude-code-bridge==1.3.0", "claude_bridge", batch=THIRTY_NINTH_BATCH),
    _app("relay-hermes==1.0.0rc9", ".", batch=THIRTY_NINTH_BATCH),
    _app("invariant-gateway==0.0.9", "gateway", batch=THIRTY_NINTH_BATCH),
    _app("lightnow-proxy==1.11.0", "src/lightnow_proxy", batch=THIRTY_NINTH_BATCH),
    _app("mcp-rlm-proxy==0.1.1", "src/mcp_proxy", batch=THIRTY_NINTH_BATCH),
    _app("wormhole-proxy==3.6.0", "wormhole", batch=THIRTY_NINTH_BATCH),
    _app("padrelay==3.0.0", "src/padrelay", batch=THIRTY_NINTH_BATCH),
    _app("haon-worker==0.4.2", "haon_worker", batch=THIRTY_NINTH_BATCH),
    _app("mcpguard-proxy==0.4.1", "mcpguard", batch=THIRTY_NINTH_BATCH),
    _app("agent-voice-bridge==0.1.0", "voice_bridge", batch=THIRTY_NINTH_BATCH),
    _app("keycloak-sso-gateway==0.1.0", "keycloak_sso_gateway", batch=THIRTY_NINTH_BATCH),
    _app("monitoring-websocket-client==1.0.83.90", ".", batch=THIRTY_NINTH_BATCH),
    _app("juniper-cascor-worker==0.6.1", "juniper_cascor_worker", batch=THIRTY_NINTH_BATCH),
    # fortieth batch, chosen as the thirty-ninth from a second new screen (session 31; scripts/screen.py
    # does the same screen): the PyPI names ending in bot, -agent, -server, -service, -monitor, -sync
    # or -stream, or with mqtt, hass, listener, notif, scheduler, crawler or scraper in them (MCP
    # servers left out), not tried before, with an sdist uploaded since 2025 (4,492 sdists), parsed for
    # the same two shapes with no bgcheck run; taken by the same rule (applications of 2,000 to
    # 140,000 lines, their own package).
    # Left out before any run as copies: the nanobot forks (kabot, biscuitbot, hczkbot, weavbot,
    # saverbot, miobot), mseep-astrbot (astrbot is here), robocorp-action-server (sema4ai-action-server's
    # older self).
    _app("ouro-agent==0.3.8", "ouro", "ouro_upgrade", batch=FORTIETH_BATCH),
    _app("cowork-server==0.26.10.26.1", "cowork", batch=FORTIETH_BATCH),
    _app("tg-agent==0.2.4.2", "tg_agent", batch=FORTIETH_BATCH),
    _app("daweibot==0.1.0", "dawei", batch=FORTIETH_BATCH),
    _app("ite-agent==0.2.34", "src/ite", batch=FORTIETH_BATCH),
    _app("puffo-agent==2.1.0", "src/puffo_agent", batch=FORTIETH_BATCH),
    _app("coderai-agent==0.5.1", "coderai", batch=FORTIETH_BATCH),
    _app("anton-agent==2.26.10.26.1", "anton", "anton_state", batch=FORTIETH_BATCH),
    _app("securevector-ai-monitor==6.0.1", "src/securevector", batch=FORTIETH_BATCH),
    _app("echo-agent==0.3.7", "echo_agent", "skills", batch=FORTIETH_BATCH),
    _app("alpi-agent==0.17.39", "alpi", batch=FORTIETH_BATCH),
    _app("cloakbot==0.2.1b1", "cloakbot", batch=FORTIETH_BATCH),
    _app("muli-agent==2.76.0", "src/muli", batch=FORTIETH_BATCH),
    _app("jarvis-agent==2.2.5", "agent", batch=FORTIETH_BATCH),
    _app("ko-tasks-server==1.6.0", "src/komus_tasks_server", batch=FORTIETH_BATCH),
    _app("uv-agent==0.21.4", "src/uv_agent", "src/uv_agent_runtime", batch=FORTIETH_BATCH),
    _app("nf-robot==7.3.2", "src/nf_robot", batch=FORTIETH_BATCH),
    _app("juno-agent==0.3.0", "juno_agent", batch=FORTIETH_BATCH),
    _app("solidx-ai-agent==0.2.9", ".", batch=FORTIETH_BATCH),
    _app("otto-agent==0.12.2", "otto", batch=FORTIETH_BATCH),
    _app("rio-agent==0.9.16", ".", batch=FORTIETH_BATCH),
    _app("lollmsbot==0.0.3", "lollmsbot", batch=FORTIETH_BATCH),
    _app("diploid-agent==0.6.15", "src/diploid_agent", batch=FORTIETH_BATCH),
    _app("sec-gofer-agent==0.3.0", "sec", batch=FORTIETH_BATCH),
    _app("one-agent==0.1.106", "one", batch=FORTIETH_BATCH),
    _app("caveman-agent==0.3.0", "caveman", batch=FORTIETH_BATCH),
    _app("tachikoma-agent==1.103.3", "src/tachikoma", batch=FORTIETH_BATCH),
    _app("muc-banbot==3.5.1", "banbot", batch=FORTIETH_BATCH),
    _app("bee-agent==1.0.0", "src/mcp_agent", batch=FORTIETH_BATCH),
    _app("moo-agent==2.5.0", "moo", batch=FORTIETH_BATCH),
    _app("ene-agent==0.1.3", "ene", batch=FORTIETH_BATCH),
    _app("dundun-agent==1.1.2", "src", batch=FORTIETH_BATCH),
    _app("sema4ai-action-server==3.2.0", "src/sema4ai", batch=FORTIETH_BATCH),
    _app("mini-box-agent==0.1.1", "mini_box_agent", batch=FORTIETH_BATCH),
    _app("haon-agent==0.8.4", "haon_agent", batch=FORTIETH_BATCH),
    _app("just-another-coding-agent==0.1.24", "src/just_another_coding_agent", batch=FORTIETH_BATCH),
    _app("mfs-server==0.4.6", "src/mfs_server", batch=FORTIETH_BATCH),
    _app("leakhunterx-agent==1.1.0rc13", "src/agent", batch=FORTIETH_BATCH),
    _app("madpod-agent==0.3.7", "madpod_agent", batch=FORTIETH_BATCH),
    _app("autonomous-devops-agent==0.1.1", "src/auto_devops_agent", batch=FORTIETH_BATCH),
    _app("android-emu-agent==0.2.1", "src/android_emu_agent", batch=FORTIETH_BATCH),
    _app("plumber-agent==1.2.0", "src", batch=FORTIETH_BATCH),
    _app("voicehook-agent==0.30.0", "src/voicehook_agent", batch=FORTIETH_BATCH),
    _app("fubot==0.2.0", "fubot", batch=FORTIETH_BATCH),
    _app("mutbot==0.8.7", "src/mutbot", batch=FORTIETH_BATCH),
    _app("chrome-agent==0.7.1", "src/chrome_agent", batch=FORTIETH_BATCH),
    _app("tack-agent==1.0.4", "tack", batch=FORTIETH_BATCH),
    _app("pypowerwall-server==0.13.0", "app", batch=FORTIETH_BATCH),
    _app("lightclawbot==0.0.21", "lightclawbot", batch=FORTIETH_BATCH),
    _app("cdy-agent==0.1.5", "src/cdy_agent", batch=FORTIETH_BATCH),
    _app("sofabaton-x-server==0.2.6", "src/sofabaton_server", batch=FORTIETH_BATCH),
    _app("susatest-agent==0.7.30", "susatest_agent", batch=FORTIETH_BATCH),
    _app("birdie-agent==0.15.1", "birdie", batch=FORTIETH_BATCH),
    _app("seclab-taskflow-agent==0.5.1", "src/seclab_taskflow_agent", batch=FORTIETH_BATCH),
    _app("beeos-device-agent==0.3.8", "src/device_agent", batch=FORTIETH_BATCH),
    _app("pywen-agent==0.1.1", ".", batch=FORTIETH_BATCH),
    _app("voice-computer-use-agent==0.1.3", "voiceuse", batch=FORTIETH_BATCH),
    _app("multi-agent==0.1.0", "agent", batch=FORTIETH_BATCH),
    _app("mh-orchestration-service==0.1.2", "src/mh_orchestration_service", batch=FORTIETH_BATCH),
    _app("muicebot==1.1.5", "muicebot", batch=FORTIETH_BATCH),
    _app("hivemind-scheduler==0.2.0", "src/hivemind", batch=FORTIETH_BATCH),
    _app("py-vcon-server==0.5.0", "py_vcon_server", batch=FORTIETH_BATCH),
    _app("runit-server==0.4.6", "runit_server", batch=FORTIETH_BATCH),
    _app("agent-api-server==2.2.1", "agent_api_server", batch=FORTIETH_BATCH),
    _app("llmai-agent==0.3.0", "llmai", "server", batch=FORTIETH_BATCH),
    _app("mini-pi-agent==0.1.3", ".", batch=FORTIETH_BATCH),
    _app("mqtt-house==0.0.3", "mqtt_house", batch=FORTIETH_BATCH),
    _app("ambient-edge-server==1.8.0", "ambient_edge_server", batch=FORTIETH_BATCH),
    _app("preview-server==0.2a3", "preview_server", batch=FORTIETH_BATCH),
    _app("projectaria-webrtc-signaling-server==0.1.2", "projectaria_webrtc_signaling_server", batch=FORTIETH_BATCH),
    _app("oai-coding-agent==0.0.4", "src/oai_coding_agent", batch=FORTIETH_BATCH),
    _app("asr-concurrent-stream==1.0.11", ".", batch=FORTIETH_BATCH),
    _app("jama-agent==0.5.0", "jama_agent", batch=FORTIETH_BATCH),
    _app("xauditor-coder-service==1.1.7", "src/xauditor_coder_service", batch=FORTIETH_BATCH),
    # forty-first batch (session 32), chosen by scripts/screen.py before any bgcheck run, to measure
    # BG101 on projects no one here has read after its REPL fix: the PyPI names with cli, tui, app,
    # hub, node, engine, runner, manager, controller, collector, exporter, watcher, watchdog, poller,
    # pipeline, ingest, feed, trader, trading, wallet, exchange, home, iot, sensor, streamer, pubsub,
    # kafka, rabbitmq, redis, celery, queue, jobs, tasks, cron, orchestrator, supervisor, host, edge,
    # station, panel or dashboard as a dash-separated word, not tried before, with an sdist uploaded
    # since 2025 (15,413 sdists), that have BG101's screen shape (an ``except CancelledError`` in a
    # coroutine's loop whose handler has no raise, return or break): 151 hits. Taken by the same rule
    # as batches 39 and 40: applications (CLIs, agents, services, daemons, runners) of 2,000 to
    # 140,000 lines, their own package. Left out before any run: libraries, SDKs and frameworks
    # (nautilus-trader, mira-engine, root-engine, mdb-engine, jesco-apple-silicon-engine,
    # statemachine-engine, agent-engine-runner-shared, aceteam-workflow-engine, qodalis-cli-server,
    # chameleon-engine, nexus-exchange, app-tools-zxw, hopeit-engine, rfnry-engine,
    # home-assistant-datasets, convo-orchestrator, agent-engine-sdk-openai-agents,
    # interpolation-engine, echostream-node, autotune-cli), MCP servers (mcp-ai-supervisor,
    # pipecat-ai-context-hub, orchestrator-mcp-server, slm-mcp-hub), and copies: overai-cli
    # (praisonai's), copal-app (copaw's).
    _app("meshagent-cli==0.56.0", "meshagent", batch=FORTY_FIRST_BATCH),
    _app("synapse-cli-agent==0.1.61", "src/synapse", batch=FORTY_FIRST_BATCH),
    _app("finance-cli==1.3.0", "finance_cli", batch=FORTY_FIRST_BATCH),
    _app("drifox-cli==0.2.12", "app", "plugins", batch=FORTY_FIRST_BATCH),
    _app("henosis-cli==0.6.205", "henosis_cli_tools", batch=FORTY_FIRST_BATCH),
    _app("siada-cli==1.7.37", "siada", batch=FORTY_FIRST_BATCH),
    _app("connection-hub==2026.10.25.100", "src/connection_hub", batch=FORTY_FIRST_BATCH),
    _app("ergane-cli==0.8.0", "factory", batch=FORTY_FIRST_BATCH),
    _app("velune-cli==0.9.8", "velune", batch=FORTY_FIRST_BATCH),
    _app("pz-cli==5.0.22", "pz_contrib", "pz_core", batch=FORTY_FIRST_BATCH),
    _app("maverick-cli==0.2.0.dev1", "src/maverick", batch=FORTY_FIRST_BATCH),
    _app("phoson-engine-minimal==0.57.1", "phoson_cli", "phoson_llm", "phoson_agent", batch=FORTY_FIRST_BATCH),
    _app("maos-cli==0.9.4", "src", batch=FORTY_FIRST_BATCH),
    _app("omnimancer-cli==0.3.7", "omnimancer", batch=FORTY_FIRST_BATCH),
    _app("anywhere-cli==2.1.0", "connector", batch=FORTY_FIRST_BATCH),
    _app("cade-cli==0.21.0", "src/cadecoder", "src/cade_mcp_local", batch=FORTY_FIRST_BATCH),
    _app("crow-cli==0.1.48", "src/crow_cli", batch=FORTY_FIRST_BATCH),
    _app("poor-cli==5.0.0", "poor_cli", batch=FORTY_FIRST_BATCH),
    _app("anima-cli==0.1.1", "src/anima", batch=FORTY_FIRST_BATCH),
    _app("nexforge-cli==0.7.8", "src/nexforge", batch=FORTY_FIRST_BATCH),
    _app("gauntlet-cli==2.1.2", "gauntlet", batch=FORTY_FIRST_BATCH),
    _app("forgexa-cli==1.84.2", "forgexa_cli", batch=FORTY_FIRST_BATCH),
    _app("swe-cli==0.1.8", "swecli", batch=FORTY_FIRST_BATCH),
    _app("msapling-cli==0.1.11", "msapling_cli", batch=FORTY_FIRST_BATCH),
    _app("mlx-manager==1.2.12", "mlx_manager", batch=FORTY_FIRST_BATCH),
    _app("flint-trading==1.1.0", "flint", batch=FORTY_FIRST_BATCH),
    _app("mcp-cli-agent==1.2.6", "cli_agent", batch=FORTY_FIRST_BATCH),
    _app("stigmer-runner==1.0.4", "src/stigmer_runner", batch=FORTY_FIRST_BATCH),
    _app("sift-engine==0.3.0", "sift", batch=FORTY_FIRST_BATCH),
    _app("koji-ingest==0.6.1", "src/koji_ingest", batch=FORTY_FIRST_BATCH),
    _app("waldiez-runner==0.7.1", "waldiez_runner", batch=FORTY_FIRST_BATCH),
    _app("crunch-node==0.1.101", "crunch_node", batch=FORTY_FIRST_BATCH),
    _app("agent-run-supervisor==0.7.9", "src/agent_run_supervisor", batch=FORTY_FIRST_BATCH),
    _app("vortex-cli==8.4.1", "vortex", batch=FORTY_FIRST_BATCH),
    _app("coordinator-node==0.1.85", "coordinator_node", batch=FORTY_FIRST_BATCH),
    _app("market-data-pipeline==0.8.70", "src/market_data_pipeline", batch=FORTY_FIRST_BATCH),
    _app("roborock-cli==0.1.11", "src/roborock_cli", batch=FORTY_FIRST_BATCH),
    _app("kollabor-engine==0.18.5", "src/kollabor_engine", batch=FORTY_FIRST_BATCH),
    _app("avatar-engine==1.3.0", "avatar_engine", batch=FORTY_FIRST_BATCH),
    _app("twpt-cli==1.3.2", "twpt_cli", batch=FORTY_FIRST_BATCH),
    _app("skop-runner==0.1.22", "skop_runner", batch=FORTY_FIRST_BATCH),
    _app("remote-cmd-manager==2.11.0", "remote_cmd", batch=FORTY_FIRST_BATCH),
    _app("device-connect-edge==0.2.5", "device_connect_edge", batch=FORTY_FIRST_BATCH),
    _app("vortex-agent-cli==1.0.0", ".", batch=FORTY_FIRST_BATCH),
    _app("materials-commons-cli==2.2.3", "materials_commons", batch=FORTY_FIRST_BATCH),
    _app("weaviate-cli==3.4.2", "weaviate_cli", batch=FORTY_FIRST_BATCH),
    _app("wish-cli==0.7.0", "src/wish_cli", batch=FORTY_FIRST_BATCH),
    _app("pantheon-cli==0.1.4", "pantheon_cli", batch=FORTY_FIRST_BATCH),
    _app("signalforge-cli==0.15.0", "src/devpost_scraper", batch=FORTY_FIRST_BATCH),
    _app("tetr-cli==1.0.3.post1", "tetr_cli", batch=FORTY_FIRST_BATCH),
    _app("kairos-engine==0.4.2", "kairos", batch=FORTY_FIRST_BATCH),
    _app("loom-pipeline==0.7.0", "src/loom", batch=FORTY_FIRST_BATCH),
    _app("gptsh-cli==0.8.3", "gptsh", batch=FORTY_FIRST_BATCH),
    _app("sidekick-agent-cli==0.4.0", "src/agent_runtime", batch=FORTY_FIRST_BATCH),
    _app("vamp-cli==0.1.11", "src/vamp_cli", batch=FORTY_FIRST_BATCH),
    _app("openrouter-agent-cli==0.2.1", "openrouter_agent_cli", batch=FORTY_FIRST_BATCH),
    _app("nb-cli==1.7.4", "nb_cli", batch=FORTY_FIRST_BATCH),
    _app("py-ib-controller==0.1.4", "ibcontroller", batch=FORTY_FIRST_BATCH),
    _app("deep-coder-cli==0.1.0", "deep_coder", batch=FORTY_FIRST_BATCH),
    _app("rustuya-manager==0.2.3", "src/rustuya_manager", batch=FORTY_FIRST_BATCH),
    _app("zoro-cli==0.1.8", "src/zoro_cli", batch=FORTY_FIRST_BATCH),
    _app("connection-hub-cli==2026.10.25.200", "src/connection_hub_cli", batch=FORTY_FIRST_BATCH),
    _app("jasmine-cli==0.1.1", "jasmine", batch=FORTY_FIRST_BATCH),
    _app("claude-code-orchestrator==0.4.10", "src/claude_orchestrator", batch=FORTY_FIRST_BATCH),
    _app("alpha-avatar-host==0.6.8", "alphaavatar", batch=FORTY_FIRST_BATCH),
    _app("hiair-cli==0.6.1", "src/hiair_cli", batch=FORTY_FIRST_BATCH),
    _app("mcp-shield-cli==0.2.3", "src/mcp_shield", batch=FORTY_FIRST_BATCH),
    _app("radix-edge==2.0.3", "radix_edge", batch=FORTY_FIRST_BATCH),
    _app("simplyplural-cli==0.1.1", "src/simplyplural", batch=FORTY_FIRST_BATCH),
    _app("codex-orchestrator==0.2.3", "src", batch=FORTY_FIRST_BATCH),
    _app("mini-agent-cli==0.8.0", "mini_agent", batch=FORTY_FIRST_BATCH),
    _app("coda-node==0.1.1", "src/coda_node", batch=FORTY_FIRST_BATCH),
    _app("coding-assistant-cli==0.1.8", "src/coding_assistant", batch=FORTY_FIRST_BATCH),
    _app("vmux-cli==0.6.2", "vmux", batch=FORTY_FIRST_BATCH),
    _app("maf-sandbox-tui==0.5.0", "src/maf_sandbox_tui", batch=FORTY_FIRST_BATCH),
    _app("stealth-message-cli==0.1.7", "stealth_cli", batch=FORTY_FIRST_BATCH),
    _app("fz-manager-plus==0.6.1", "source", batch=FORTY_FIRST_BATCH),
    _app("gemi-cli==0.1.0", "src/gemi", batch=FORTY_FIRST_BATCH),
    _app("tokenflow-cli==0.1.6", "tokenflow_cli", batch=FORTY_FIRST_BATCH),
    _app("simbricks-runner==0.6.0", "simbricks", batch=FORTY_FIRST_BATCH),
    _app("flowmesh-cli==0.1.13", "src/flowmesh_cli", batch=FORTY_FIRST_BATCH),
    _app("terminus-cli==0.1.0", "src", batch=FORTY_FIRST_BATCH),
    # forty-second batch (session 33), chosen by scripts/screen.py before any bgcheck run, to measure
    # BG101 once it kept only the running task's own cancellation (a try that awaits another task, or
    # a handler that re-raises in some cases or records the stop in a flag its loop reads, moved to
    # BG105): the PyPI names with assistant, chat, chatbot, llm, voice, claw, copilot, coder, coding,
    # terminal, shell, desktop, studio, webui, ui, ai, gpt, claude, codex, gemini, ollama, rag, swarm,
    # crew, autopilot, operator, companion, butler, jarvis, brain or memory as a dash-separated word,
    # not in the corpus, with an sdist uploaded since 2025 (13,834 sdists), that have BG101's screen
    # shape: 210 hits, 164 of 2,000 to 140,000 lines. Taken by the same rule as batches 39 to 41:
    # applications (agents, assistants, CLIs, proxies, servers, desktop and web apps) with their code
    # in a package folder of their own. Left out before any run: frameworks, SDKs, libraries, runtimes,
    # memory layers, plugins and extensions (primer-ai, vane-ai, piopiy-ai, ai-parrot-server, dao-ai,
    # fireworks-ai, pydantic-ai-harness, pythinker-ai, cody-ai, sirius-chat, llm-orchestra, the memory
    # and RAG libraries, ...), MCP servers, projects with no package folder (rain-assistant, ata-coder,
    # navy-ai, syne-voice), and copies: the nanobot forks ("a lightweight personal AI assistant
    # framework": openbot-ai, ragnarbot-ai, nanobot-ai-tng, nanobot-desktop, neobot-ai, kyber-chat,
    # snapagent-ai, megan-ai, phyagentos-ai, tokenmind-ai), ouro-ai (ouro-agent's), claw-tap
    # (claude-tap's), xdog-coding (the same src/xdog as xdog-claw), deterministic-ai-gateway and
    # lucent-voice-bridge (left out before).
    _app("flowly-ai==3.0.1", "flowly", batch=FORTY_SECOND_BATCH),
    _app("codex-lb-cinamon==1.20.2", "app", batch=FORTY_SECOND_BATCH),
    _app("henchman-ai==0.4.1", "src/henchman", batch=FORTY_SECOND_BATCH),
    _app("agentcrew-ai==0.23.0", "AgentCrew", batch=FORTY_SECOND_BATCH),
    _app("free-claude-code==6.18.3", "src/free_claude_code", batch=FORTY_SECOND_BATCH),
    _app("quorus-ai==0.7.12", "quorus", batch=FORTY_SECOND_BATCH),
    _app("atlas-chat==0.10.0", "atlas", batch=FORTY_SECOND_BATCH),
    _app("openbrowser-ai==0.1.54", "src/openbrowser", batch=FORTY_SECOND_BATCH),
    _app("devagent-ai==0.8.13", "devagent", batch=FORTY_SECOND_BATCH),
    _app("my-crew==0.19.0", "my_crew", batch=FORTY_SECOND_BATCH),
    _app("claude-jacked==0.108.0", "jacked", batch=FORTY_SECOND_BATCH),
    _app("a13n-harness-ui==0.21.0", "a13n_harness_ui", batch=FORTY_SECOND_BATCH),
    _app("bao-ai==0.4.0", "bao", batch=FORTY_SECOND_BATCH),
    _app("wisp-ai==0.4.0", "src/wisp", batch=FORTY_SECOND_BATCH),
    _app("depression-ai==1.2.0", "src/agent", batch=FORTY_SECOND_BATCH),
    _app("aetherion-ai==2.4.1", "aetherion", batch=FORTY_SECOND_BATCH),
    _app("neuroshard-ai==0.4.1", "src/neuroshard", batch=FORTY_SECOND_BATCH),
    _app("kotoba-companion==0.10.0", "src/kotoba", batch=FORTY_SECOND_BATCH),
    _app("cisco-ai-mcp-scanner==4.8.7", "mcpscanner", batch=FORTY_SECOND_BATCH),
    _app("roomkit-ui==0.4.0", "src/roomkit_ui", batch=FORTY_SECOND_BATCH),
    _app("kickoff-companion==1.0.1", "app", batch=FORTY_SECOND_BATCH),
    _app("claude-anyteam==0.8.4", "src/claude_anyteam", "src/claude_teams", batch=FORTY_SECOND_BATCH),
    _app("metis-llm==0.1.0", "src/metis", batch=FORTY_SECOND_BATCH),
    _app("hermitcrab-ai==0.1.1b6", "hermitcrab", batch=FORTY_SECOND_BATCH),
    _app("oats-coder==1.0.19", "oats", batch=FORTY_SECOND_BATCH),
    _app("agent-brain-rag==10.7.0", "agent_brain_server", batch=FORTY_SECOND_BATCH),
    _app("xdog-claw==2.5.0", "src/xdog", batch=FORTY_SECOND_BATCH),
    _app("claude-tap==0.1.146", "claude_tap", batch=FORTY_SECOND_BATCH),
    _app("wade-ai==0.2.1", "app", batch=FORTY_SECOND_BATCH),
    _app("claude-comms==0.6.0", "src/claude_comms", batch=FORTY_SECOND_BATCH),
    _app("persona-voice==1.2.1", "src/persona_voice", batch=FORTY_SECOND_BATCH),
    _app("hyperdata-terminal==1.0.0", "hyperdata_terminal", batch=FORTY_SECOND_BATCH),
    _app("python-codex==0.5.1", "pycodex", "responses_server", batch=FORTY_SECOND_BATCH),
    _app("gremlins-ai==0.1.4", "gremlins", batch=FORTY_SECOND_BATCH),
    _app("maivn-studio==0.4.5", "src/maivn_studio", batch=FORTY_SECOND_BATCH),
    _app("tether-ai==0.3.4", "tether", batch=FORTY_SECOND_BATCH),
    _app("omni-coder==0.13.1", "omni", batch=FORTY_SECOND_BATCH),
    _app("canvas-chat==0.1.112", "src/canvas_chat", batch=FORTY_SECOND_BATCH),
    _app("llm-cockpit==1.0.2", "src/cockpit", batch=FORTY_SECOND_BATCH),
    _app("voice-copilot==0.1.0", "src/voice_copilot", batch=FORTY_SECOND_BATCH),
    _app("cadre-ai==1.3.0", "src/cadre", batch=FORTY_SECOND_BATCH),
    _app("open-codex-ui==0.1.20", "yier_web", batch=FORTY_SECOND_BATCH),
    _app("claude-code-remote==1.0.2", "claude_code_remote", batch=FORTY_SECOND_BATCH),
    _app("wingman-ai==1.1.2", "src/wingman", batch=FORTY_SECOND_BATCH),
    _app("maya-voice-os==1.0.7", "maya_voice_os", batch=FORTY_SECOND_BATCH),
    _app("ai-snake-lab==0.12.1", "ai_snake_lab", batch=FORTY_SECOND_BATCH),
    _app("ai-device==0.2.2", "src/device_runtime", batch=FORTY_SECOND_BATCH),
    # worker libraries and servers
    _lib("bentoml==1.4.40", "src/bentoml", "src/_bentoml_impl", "src/_bentoml_sdk", batch=NINETEENTH_BATCH),
    _lib("kserve==0.21.0", "kserve", batch=NINETEENTH_BATCH),
    _lib("ansible-runner==2.3.8", "ansible_runner", batch=NINETEENTH_BATCH),
    _lib("celery==5.7.0", "celery"),
    _lib("kombu==5.7.0", "kombu"),
    _lib("dramatiq==2.2.1", "dramatiq"),
    _lib("rq==3.0.0", "rq"),
    _lib("huey==3.5.4", "huey"),
    _lib("taskiq==0.13.0", "taskiq"),
    _lib("saq==0.26.4", "saq"),
    _lib("procrastinate==3.10.0", "procrastinate"),
    _lib("faust-streaming==0.15.3", "faust"),
    _lib("aiokafka==0.14.0", "aiokafka"),
    _lib("distributed==2026.8.0", "distributed"),
    _lib("django-celery-beat==2.9.0", "django_celery_beat"),
    _lib("django-rq==4.2.0", "django_rq"),
    _lib("sentry-sdk==2.75.0", "sentry_sdk"),
    _lib("uvicorn==0.54.0", "uvicorn"),
    _lib("gunicorn==27.0.1", "gunicorn"),
    _lib("channels==4.3.2", "channels"),
    _lib("kopf==1.45.2", "kopf"),
    _lib("python-telegram-bot==22.8", "src/telegram"),
    _lib("luigi==3.8.1", "luigi"),
    _lib("django-q2==1.11.1", "django_q"),
    _lib("aio-pika==10.2.1", "aio_pika"),
    _lib("nats-py==2.16.0", "src/nats"),
    _lib("zeroconf==0.154.0", "src/zeroconf"),
    _lib("tornado==6.6.1", "tornado"),
    _lib("hypercorn==0.18.0", "src/hypercorn"),
    _lib("slack-bolt==1.30.0", "slack_bolt"),
    _lib("pipecat-ai==1.14.0", "src/pipecat", batch=TWELFTH_BATCH),
    _lib("livekit-agents==1.8.9", "livekit", batch=TWELFTH_BATCH),
    _lib("hass-nabucasa==0.82.0", "hass_nabucasa", batch=TWELFTH_BATCH),
    _lib("pymodbus==3.16.1", "pymodbus", batch=TWELFTH_BATCH),
    _lib("nonebot2==2.5.0", "nonebot", batch=FIFTEENTH_BATCH),
    _lib("autogen-core==0.7.5", "src/autogen_core", batch=FIFTEENTH_BATCH),
    _lib("faststream==0.7.8", "faststream", batch=FIFTEENTH_BATCH),
    _lib("aiosmtpd==1.4.6", "aiosmtpd", batch=FIFTEENTH_BATCH),
    # thirty-fourth batch's libraries (chosen as its applications, above): asyncio clients, workers
    # and service frameworks.
    _lib("hikari==2.7.0", "hikari", batch=THIRTY_FOURTH_BATCH),
    _lib("kafkaesk==0.8.7", "kafkaesk", batch=THIRTY_FOURTH_BATCH),
    _lib("lightbus==1.1.2", "lightbus", batch=THIRTY_FOURTH_BATCH),
    _lib("bullmq==3.4.4", "bullmq", batch=THIRTY_FOURTH_BATCH),
    _lib("wakaq==4.0.4", "wakaq", batch=THIRTY_FOURTH_BATCH),
    _lib("aiomisc==18.0.37", "aiomisc", "aiomisc_log", "aiomisc_worker", batch=THIRTY_FOURTH_BATCH),
    _lib("mode-streaming==0.7.1", "mode", batch=THIRTY_FOURTH_BATCH),
    _lib("python-socketio==5.18.1", "src/socketio", batch=THIRTY_FOURTH_BATCH),
    _lib("lahja==0.17.0", "lahja", batch=THIRTY_FOURTH_BATCH),
    _lib("async-service==0.1.0a11", "async_service", batch=THIRTY_FOURTH_BATCH),
    _lib("spade==4.1.4", "spade", batch=THIRTY_FOURTH_BATCH),
    # thirty-fifth batch, chosen as the thirty-fourth from the same finders' lists (the applications
    # there were used up): asyncio libraries whose own code catches CancelledError inside a loop of
    # a coroutine. Left out by size before any run: agno (496k lines), google-adk (224k),
    # openai-agents (165k), agentscope (124k).
    _lib("fal==1.83.0", "src/fal", batch=THIRTY_FIFTH_BATCH),
    _lib("scrapy-cffi==0.4.5", "scrapy_cffi", batch=THIRTY_FIFTH_BATCH),
    _lib("python-kraken-sdk==3.5.1", "src/kraken", batch=THIRTY_FIFTH_BATCH),
    _lib("bscpylgtv==0.5.5", "bscpylgtv", batch=THIRTY_FIFTH_BATCH),
    _lib("pyinsteon==1.7.0", "pyinsteon", batch=THIRTY_FIFTH_BATCH),
    _lib("mqttium==1.2.1", "src/mqttium", batch=THIRTY_FIFTH_BATCH),
    _lib("poolguy==0.1.8", "poolguy", batch=THIRTY_FIFTH_BATCH),
    _lib("envs-xmpp==1.7.2", "src/envs_xmpp_core", "src/envs_xmpp_ops", batch=THIRTY_FIFTH_BATCH),
    _lib("velbus-aio==2026.9.0", "velbusaio", batch=THIRTY_FIFTH_BATCH),
    _lib("nemoguardrails==0.17.0", "nemoguardrails", batch=THIRTY_FIFTH_BATCH),
    _lib("kucoin-python==1.0.26", "kucoin", batch=THIRTY_FIFTH_BATCH),
    _lib("async-substrate-interface==2.2.1", "async_substrate_interface", batch=THIRTY_FIFTH_BATCH),
    # thirty-sixth batch, chosen as the thirty-fifth from the rest of the same lists. Left out by size
    # before any run: libp2p (134k lines), praisonaiagents (271k), agent-framework-core (85k),
    # mcp-agent (92k), cognee (234k), evalscope (185k).
    _lib("llama-index-workflows==2.26.1", "src/workflows", batch=THIRTY_SIXTH_BATCH),
    _lib("kiwipy==0.9.0", "src/kiwipy", batch=THIRTY_SIXTH_BATCH),
    _lib("juju==3.6.1.3", "juju", batch=THIRTY_SIXTH_BATCH),
    _lib("jupyter-client==8.10.0", "jupyter_client", batch=THIRTY_SIXTH_BATCH),
    _lib("tqsdk==3.10.4", "tqsdk", batch=THIRTY_SIXTH_BATCH),
    _lib("pytoniq==0.1.43", "pytoniq", batch=THIRTY_SIXTH_BATCH),
    _lib("bleak==3.1.0", "bleak", batch=THIRTY_SIXTH_BATCH),
    _lib("bacpypes3==0.0.110", "bacpypes3", batch=THIRTY_SIXTH_BATCH),
    _lib("dingtalk-stream==0.24.2", "dingtalk_stream", batch=THIRTY_SIXTH_BATCH),
    _lib("discord-http==3.3.0", "discord_http", batch=THIRTY_SIXTH_BATCH),
    _lib("meshcore==2.3.17", "src/meshcore", batch=THIRTY_SIXTH_BATCH),
    _lib("mqtt-hass-base==4.4.1", "mqtt_hass_base", batch=THIRTY_SIXTH_BATCH),
    _lib("satel-integra==1.6.0", "satel_integra", batch=THIRTY_SIXTH_BATCH),
    _lib("crawlee==1.11.0", "src/crawlee", batch=THIRTY_SIXTH_BATCH),
    _lib("langroid==0.69.16", "langroid", batch=THIRTY_SIXTH_BATCH),
    _lib("erispulse-discordadapter==4.3.1", "DiscordAdapter", batch=THIRTY_SIXTH_BATCH),
    # thirty-eighth batch: the two libraries left on the same screen's lists, which the thirty-sixth
    # batch had left out by size (136k and 124k lines). Taken after the thirty-seventh batch's run,
    # once BG101's own fixes had left its held-out half at 9 judged findings (its place needs 10):
    # chosen by the screen alone, before any bgcheck run on them, as every batch. google-adk, the
    # other library left, is in the recall set.
    _lib("openai-agents==0.24.0", "src/agents", batch=THIRTY_EIGHTH_BATCH),
    _lib("agentscope==2.0.11", "src/agentscope", batch=THIRTY_EIGHTH_BATCH),
]
BY_NAME = {p.name: p for p in PROJECTS}

TUNING = "tuning"
HELD_OUT = "held-out"


def halves(projects: list[Project]) -> dict[str, str]:
    """Each project's half, by a fixed rule written before any verdict: within each kind, the
    projects in the order of their name's sha256 go to the tuning and the held-out half in
    turn. A rule change may be tuned on the tuning half's findings; whether a rule is on by
    default is decided on the held-out half alone. Each batch of projects (Project.batch) is
    split on its own by the same rule, so that adding projects never moves one already judged."""
    half: dict[str, str] = {}
    for batch, kind in sorted({(p.batch, p.kind) for p in projects}):
        ranked = sorted((p.name for p in projects if p.kind == kind and p.batch == batch), key=lambda n: hashlib.sha256(n.encode()).hexdigest())
        for index, name in enumerate(ranked):
            half[name] = TUNING if index % 2 == 0 else HELD_OUT
    return half


VERDICTS = ("real", "false", "debatable")
TEST_DIRS = {"tests", "test", "testing_tests", "_tests"}
# A Django app's tests are often one tests.py module beside its models.
TEST_FILES = {"conftest.py", "tests.py"}


@dataclass(frozen=True)
class Finding:
    project: str
    path: str  # relative to the project's folder, with "/"
    line: int
    code: str
    message: str
    # What a judge is shown besides the message: the column, the explanation and the notes
    # (related places), as bgcheck's JSON gives them.
    detail: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.project, self.path, self.line, self.code)


@dataclass(frozen=True)
class Verdict:
    project: str
    path: str
    line: int
    code: str
    verdict: str
    reason: str
    judge: str = ""  # who gave it: one blind judge's label, never the rule's author

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.project, self.path, self.line, self.code)


def combined(verdicts: list[Verdict]) -> str | None:
    """The verdict of a finding from its judges' verdicts: the first two judges decide; where
    they agree that is the verdict, where they differ it is debatable. None until two judges
    have given one."""
    first: dict[str, Verdict] = {}
    for v in verdicts:
        first.setdefault(v.judge, v)
    if len(first) < 2:
        return None
    a, b = list(first.values())[:2]
    return a.verdict if a.verdict == b.verdict else "debatable"


# BG000 says a file was not analysed (a syntax error, syntax newer than the running Python): a
# finding of no rule, so it is shown apart and counts in no precision.
NOT_ANALYSED = "BG000"


def project_name(pin: str) -> str:
    return pin.split("==")[0]


# -- fetching ---------------------------------------------------------------------------


def _download_listed_sdist(name: str, version: str, sdists: Path) -> bool:
    """The sdist the package index lists for this version (its JSON simple page), checked against
    its sha256. pip download reads an sdist's metadata by building it, which fails where its build
    requirements conflict (pretix); the file itself is all the ecosystem check needs."""
    page = urllib.request.Request(f"https://pypi.org/simple/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    wanted = f"{_normalized(name)}_{version.replace('-', '_')}.tar.gz".lower()  # bodhi-server-5.2.0-1
    try:
        with urllib.request.urlopen(page, timeout=60) as response:
            files = json.load(response)["files"]
        listed = next(f for f in files if f["filename"].replace("-", "_").lower() == wanted)
        with urllib.request.urlopen(listed["url"], timeout=600) as response:
            data = response.read()
    except (OSError, ValueError, KeyError, StopIteration):
        return False
    if hashlib.sha256(data).hexdigest() != listed["hashes"]["sha256"]:
        return False
    (sdists / listed["filename"]).write_bytes(data)
    return True


def fetch(pin: str, folders: str | tuple[str, ...], work: Path = WORK, label: str | None = None) -> Path:
    """Unpack the code folders of ``pin`` into <work>/src/<label>/ (once), each under its last
    part; the label is the project's name unless given (scripts/recall.py keeps several versions
    of one project)."""
    if isinstance(folders, str):
        folders = (folders,)
    name = project_name(pin)
    dest = work / "src" / (label or name)
    if dest.exists():
        return dest
    sdists = work / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    version = pin.split("==")[1]
    found = _find_sdist(sdists, name, version)
    if found is None:
        # The index's own file first: pip download builds an sdist to read its metadata, which
        # fails where its build requirements conflict or need a compiler (pretix, synapse).
        if not _download_listed_sdist(name, version, sdists):
            done = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", name,
                 "--ignore-requires-python", pin, "-d", str(sdists)],
                capture_output=True, text=True, check=False,
            )
            if done.returncode != 0:
                sys.exit(f"ecosystem: could not download {pin}: {done.stderr.strip().splitlines()[-1:]}")
        found = _find_sdist(sdists, name, version)
        if found is None:
            sys.exit(f"ecosystem: no sdist downloaded for {pin}")
    with tempfile.TemporaryDirectory() as tmp:
        if found.suffix == ".zip":
            with zipfile.ZipFile(found) as archive:
                archive.extractall(tmp)
        else:
            with tarfile.open(found) as archive:
                archive.extractall(tmp, filter="data")
        (top,) = [p for p in Path(tmp).iterdir() if p.is_dir()]
        staging = Path(tmp) / "_project"
        for folder in folders:
            shutil.copytree(top / folder, staging / Path(folder).name, ignore=_ignore_tests)
        # A project marker so bgcheck takes this folder as the project root.
        (staging / "pyproject.toml").write_text("[tool.bgcheck]\n", encoding="utf-8")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), dest)  # whole or not at all: an interrupted fetch leaves nothing
    return dest


def _normalized(name: str) -> str:
    """A project's name as an sdist's file name spells it (PEP 625: runs of "-", "_", "." are one "_")."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _find_sdist(folder: Path, name: str, version: str) -> Path | None:
    stem = _normalized(name)
    version = version.replace("-", "_")  # as in the file's name below (bodhi-server 5.2.0-1)
    for path in folder.iterdir():
        lowered = path.name.lower().replace("-", "_")
        if lowered.startswith(f"{stem}_{version}.") or lowered.startswith(f"{stem}_{version}.tar"):
            return path
    return None


def _ignore_tests(directory: str, names: list[str]) -> set[str]:
    return {
        n for n in names
        if n in TEST_DIRS
        or n in TEST_FILES
        or (n.endswith(".py") and (n.startswith("test_") or n.endswith("_test.py")))
    }


def count_lines(root: Path) -> int:
    total = 0
    for path in root.rglob("*.py"):
        with open(path, "rb") as handle:
            total += sum(1 for _ in handle)
    return total


# -- running ----------------------------------------------------------------------------


def _bgcheck(root: Path, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "bgcheck", *args]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"ecosystem: bgcheck {args[0]} failed on {root.name} (exit {done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def check(name: str, root: Path, cache: Path | None = None) -> list[Finding]:
    # Preview rules run too: their findings are judged like the others, and the report shows
    # the default rules (what a user gets) apart from them.
    caching = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    data = _bgcheck(root, "check", "--preview", "--format", "json", *caching, "--exit-zero", ".")
    return [
        Finding(
            name, d["path"].replace("\\", "/").removeprefix("./"), d["line"], d["code"], d["message"],
            {"column": d.get("column"), "name": d.get("name"), "explanation": d.get("explanation"),
             "notes": [{"path": r["path"].replace("\\", "/").removeprefix("./"), "line": r["line"], "message": r["message"]}
                       for r in d.get("related") or []]},
        )
        for d in data["diagnostics"]
    ]


def jobs(root: Path, cache: Path) -> Counter:
    """The background jobs bgcheck finds in the project, counted by framework: a regression in
    job discovery shows in the report even where no rule's finding changes."""
    data = _bgcheck(root, "jobs", "--format", "json", "--cache-dir", str(cache), ".")
    return Counter(job.get("framework") or "?" for job in data["jobs"])


# -- verdicts ---------------------------------------------------------------------------


# A rule that split into two: the new code's findings were the old code's. A verdict given to the
# old code's finding holds for the same handler, at the same line, reported under the new code:
# the finding, the code it points at and the failure it names are the same, only the code number
# moved (BG203's waits for work on this machine went to BG206, BG602's executor futures to BG605).
SPLIT_FROM = {"BG105": "BG101", "BG106": "BG104", "BG206": "BG203", "BG605": "BG602", "BG606": "BG602"}  # bgcheck.rules.catalog.SPLIT_FROM (a test checks)


def read_verdicts(path: Path = VERDICTS_FILE) -> dict[tuple[str, str, int, str], list[Verdict]]:
    """Every judge's verdict, by finding. A row is never edited once written: a rule change is
    judged by which judged findings it keeps and drops, and new findings get new rows. The
    verdicts of a code that split also answer for the same place under the new code
    (SPLIT_FROM); rows written for the new code come first."""
    verdicts: dict[tuple[str, str, int, str], list[Verdict]] = defaultdict(list)
    if not path.exists():
        return verdicts
    with open(path, encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if not row or row[0].startswith("#") or row[0] == "project":
                continue
            if len(row) != 7 or row[5] not in VERDICTS or not row[6].strip() or not row[4].strip():
                sys.exit(f"ecosystem: {path.name}:{number}: want project, path, line, code, judge, verdict "
                         f"({'/'.join(VERDICTS)}), reason; got {row!r}")
            verdict = Verdict(row[0], row[1], int(row[2]), row[3], row[5], row[6].strip(), row[4].strip())
            verdicts[verdict.key].append(verdict)
    for new, old in SPLIT_FROM.items():
        for key in [k for k in verdicts if k[3] == old]:
            verdicts[(*key[:3], new)] += verdicts[key]
    return verdicts


def codes_split_from(code: str) -> set[str]:
    """The codes split off ``code`` (SPLIT_FROM: new code -> old)."""
    return {new for new, old in SPLIT_FROM.items() if old == code}


def _same_place(key) -> list:
    """``key`` and the same place under each code a split relates to its code (SPLIT_FROM, either way)."""
    code = key[3]
    related = codes_split_from(code) | ({SPLIT_FROM[code]} if code in SPLIT_FROM else set())
    return [key] + [(*key[:3], other) for other in sorted(related)]


def _same_finding_reported(key, now) -> bool:
    """Is the finding ``key`` still reported, under its code or the code it split into (or from)?"""
    return any(same in now for same in _same_place(key))


def verdict_of(verdicts: dict[tuple[str, str, int, str], list[Verdict]], key) -> str:
    return combined(verdicts.get(key, [])) or "unjudged"


def write_findings(findings: list[Finding], verdicts, half: dict[str, str], path: Path) -> None:
    """Every finding of the run, a row each: project, half, path, line, code, verdict, message (for
    reading the run by rule or by shape; the report counts them)."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle, delimiter="\t", lineterminator="\n")
        out.writerow(("project", "half", "path", "line", "code", "verdict", "message"))
        for f in sorted(findings, key=lambda f: f.key):
            out.writerow((f.project, half.get(f.project, ""), f.path, f.line, f.code, verdict_of(verdicts, f.key), f.message))


# -- report -----------------------------------------------------------------------------


def precision(real: int, false: int) -> str:
    return f"{100 * real / (real + false):.0f}%" if real + false else "n/a"


COUNTED = ("real", "false", "debatable", "unjudged")


def _cells(c: Counter) -> list[str]:
    """findings, real, false, debatable, unjudged, precision (noted when too few to measure)."""
    note = " (too few to measure)" if 0 < c["real"] + c["false"] < MEASURED else ""
    return [str(sum(c[k] for k in COUNTED)), *(str(c[k]) for k in COUNTED), f"{precision(c['real'], c['false'])}{note}"]


def _row(label: str, c: Counter) -> str:
    return "| " + " | ".join([label, *_cells(c)]) + " |"


# A rule is on by default when its held-out precision is at least DEFAULT_PRECISION with at
# least MEASURED real-or-false findings there. With fewer, both halves together tell only a
# clear miss: two false findings or more and precision below the bar put it in preview.
DEFAULT_PRECISION = 0.9
MEASURED = 10


def place(held_out: Counter, tuning: Counter) -> str:
    """Where the measure puts a rule: "default", "preview", or "too few" to say (it stays where it is)."""
    judged = held_out["real"] + held_out["false"]
    if judged >= MEASURED:
        return "default" if held_out["real"] >= DEFAULT_PRECISION * judged else "preview"
    real, false = held_out["real"] + tuning["real"], held_out["false"] + tuning["false"]
    if false >= 2 and real < DEFAULT_PRECISION * (real + false):
        return "preview"
    return "too few"


def build_report(
    findings: list[Finding],
    verdicts: dict[tuple[str, str, int, str], list[Verdict]],
    projects: list[tuple[Project, int, Counter]],
    half: dict[str, str],
    preview_codes: set[str],
    rule_codes: frozenset = frozenset(),
) -> tuple[str, list[Finding]]:
    """The report, and the findings that still want a verdict. ``projects`` holds each checked
    project with its line count and the jobs bgcheck found in it."""
    checked = {project.name for project, _lines, _jobs in projects}
    kinds = {project.name: project.kind for project, _lines, _jobs in projects}
    now = {f.key: f for f in findings}
    unjudged = [f for f in findings if f.code != NOT_ANALYSED and verdict_of(verdicts, f.key) == "unjudged"]
    lines: list[str] = []
    out = lines.append

    out("# Ecosystem check")
    out("")
    out("bgcheck's findings on the code folders of pinned PyPI sdists (applications and worker libraries), each")
    out("finding judged blind by two judges who did not write the rules and saw only the finding, the rule's")
    out("page and the project's code (`scripts/ecosystem/verdicts.tsv`). Where they agree that is the verdict;")
    out("where they differ it is debatable. Precision = real / (real + false); debatable is shown apart.")
    out("The projects are split once, by a fixed rule, into a tuning half and a held-out half: rules may be")
    out("tuned on the tuning half; a rule's place (default or preview) is decided on the held-out half alone.")
    for new, old in SPLIT_FROM.items():
        out(f"{new} split from {old}: a verdict given to a {old} finding holds for the same line reported as {new}.")
    out("Produced by `python scripts/ecosystem.py`.")
    out("")

    def tally(selected) -> Counter:
        c = Counter()
        for f in selected:
            c[verdict_of(verdicts, f.key)] += 1
        return c

    rules = [f for f in findings if f.code != NOT_ANALYSED]
    out("| measure | findings | real | false | debatable | unjudged | precision |")
    out("|---|---:|---:|---:|---:|---:|---:|")
    for part in (HELD_OUT, TUNING):
        for group, is_preview in (("default rules", False), ("preview rules", True)):
            chosen = [f for f in rules if half.get(f.project) == part and (f.code in preview_codes) == is_preview]
            out(_row(f"**{part}: {group}**", tally(chosen)))
        apps = [f for f in rules if half.get(f.project) == part and f.code not in preview_codes
                and kinds.get(f.project) == APPLICATION]
        out(_row(f"{part}: default rules on applications", tally(apps)))
    out("")

    out("Per rule, held-out half (decides) and tuning half, and the place the measure gives the rule (`place`):")
    out("")
    out("| rule | held-out findings | real | false | debatable | unjudged | held-out precision | tuning findings | real | false | debatable | unjudged | tuning precision | place |")
    out("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for code in sorted({f.code for f in rules}):
        label = f"{code} (preview)" if code in preview_codes else code
        counts = [tally(f for f in rules if f.code == code and half.get(f.project) == part) for part in (HELD_OUT, TUNING)]
        out("| " + " | ".join([label, *_cells(counts[0]), *_cells(counts[1]), place(*counts)]) + " |")
    out("")
    silent = sorted(set(rule_codes) - {f.code for f in rules})
    if silent:
        out("No finding in the corpus, so precision not measured here (the rule tests and the recall set")
        out(f"cover them): {', '.join(c for c in silent if c not in preview_codes) or 'none'}; "
            f"preview: {', '.join(c for c in silent if c in preview_codes) or 'none'}.")
        out("")

    out("Per project (R/F/D/U: real, false, debatable, unjudged; BG000: files not analysed, apart):")
    out("")
    out("| project | kind | half | version | lines | jobs found | default R/F/D/U | preview R/F/D/U | BG000 |")
    out("|---|---|---|---|---:|---|---:|---:|---:|")
    for project, lines_count, found_jobs in projects:
        mine = [f for f in findings if f.project == project.name]
        default = tally(f for f in mine if f.code != NOT_ANALYSED and f.code not in preview_codes)
        preview = tally(f for f in mine if f.code in preview_codes)
        job_text = ", ".join(f"{framework} {n}" for framework, n in sorted(found_jobs.items())) or "none"
        out(f"| {project.name} | {project.kind} | {half.get(project.name)} | {project.version} | {lines_count:,} | "
            f"{job_text} | " + "/".join(str(default[k]) for k in COUNTED) + " | "
            + "/".join(str(preview[k]) for k in COUNTED) + f" | {sum(1 for f in mine if f.code == NOT_ANALYSED)} |")
    out("")

    # Findings by name are listed for the tuning half only: the held-out half is counted, so
    # that no change is tuned on it.
    gone = sorted(
        (key for key in verdicts if key[0] in checked and not _same_finding_reported(key, now)
         and verdict_of(verdicts, key) != "unjudged"
         and not (key[3] in SPLIT_FROM and (*key[:3], SPLIT_FROM[key[3]]) in verdicts)),  # listed under its old code
    )
    if gone:
        out(f"## Judged findings no longer reported ({len(gone)})")
        out("")
        out("A `real` one gone is lost recall; a `false` one gone is a fixed false alarm.")
        out("")
        held = Counter(verdict_of(verdicts, k) for k in gone if half.get(k[0]) == HELD_OUT)
        if held:
            out("Held-out half: " + ", ".join(f"{n} {v}" for v, n in sorted(held.items())) + ".")
            out("")
        for key in gone:
            if half.get(key[0]) == TUNING:
                first = verdicts[key][0]
                out(f"- {verdict_of(verdicts, key)}: {key[0]} {key[1]}:{key[2]} {key[3]} ({first.reason})")
        out("")
    disputed = [f for f in rules if half.get(f.project) == TUNING and verdict_of(verdicts, f.key) == "debatable"
                and len({v.verdict for v in verdicts[f.key][:2]}) > 1]
    if disputed:
        out(f"## Tuning half: findings the judges disagreed on ({len(disputed)})")
        out("")
        for f in disputed:
            reasons = "; ".join(f"{v.verdict}: {v.reason}" for v in verdicts[f.key][:2])
            out(f"- {f.project} {f.path}:{f.line} {f.code}: {reasons}")
        out("")
    if unjudged:
        out(f"## Findings that want a verdict ({len(unjudged)})")
        out("")
        for f in unjudged:
            given = len({v.judge for v in verdicts.get(f.key, [])})
            out(f"- {f.project} {f.path}:{f.line} {f.code} ({given} of 2 verdicts)")
        out("")
    return "\n".join(lines), unjudged


def write_packets(findings: list[Finding], verdicts, folder: Path) -> int:
    """What a judge is given: for each project with findings that want a verdict, one Markdown
    file with each finding as bgcheck reports it (path, line, message, explanation, notes) and
    nothing of bgcheck's implementation. Returns the number of findings written."""
    folder.mkdir(parents=True, exist_ok=True)
    by_project: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        if f.code != NOT_ANALYSED and verdict_of(verdicts, f.key) == "unjudged":
            by_project[f.project].append(f)
    for name, mine in by_project.items():
        text = [f"# Findings to judge: {name} ({BY_NAME[name].pin if name in BY_NAME else name})", "",
                f"Source: scripts/.ecosystem/src/{name}/ (paths below are relative to it). Rule pages: rules/<CODE>.md.", ""]
        for f in mine:
            d = f.detail
            text.append(f"## {f.path}:{f.line}:{d.get('column')} {f.code} ({d.get('name')})")
            text.append("")
            text.append(f"Message: {f.message}")
            if d.get("explanation"):
                text.append(f"Explanation: {d['explanation']}")
            for note in d.get("notes") or []:
                text.append(f"Note: {note['path']}:{note['line']}: {note['message']}")
            text.append("")
        (folder / f"{name}.md").write_text("\n".join(text), encoding="utf-8")
    return sum(len(v) for v in by_project.values())


def write_readme_table(report: str, start: str = README_START, end: str = README_END, tables: int = 2) -> None:
    """Put the report's first tables between the README's markers (for the ecosystem check its
    two tables; scripts/recall.py passes its own markers)."""
    text = README.read_text(encoding="utf-8")
    if start not in text or end not in text:
        return
    blocks = [block for block in report.split("\n\n") if block.startswith("|")]
    head, rest = text.split(start, 1)
    _old, tail = rest.split(end, 1)
    README.write_text(head + start + "\n" + "\n\n".join(blocks[:tables]) + "\n" + end + tail, encoding="utf-8")


def preview_rules() -> set[str]:
    return {code for code, preview in _rules() if preview}


def rule_codes() -> frozenset:
    return frozenset(code for code, _preview in _rules())


def _rules() -> list[tuple[str, bool]]:
    """(code, preview) of every rule of this checkout that checks code (BG0xx say a file could not be read
    or a suppression is unused)."""
    sys.path.insert(0, str(REPO))
    try:
        from bgcheck.rules import all_rules  # type: ignore[attr-defined]
    except ImportError:
        return []
    return [(r.code, bool(getattr(r, "preview", False))) for r in all_rules() if not r.code.startswith("BG0")]


def run(chosen: list[Project]) -> tuple[list[Finding], list[tuple[Project, int, Counter]]]:
    """bgcheck's findings and jobs on each chosen project, with its line count."""
    findings: list[Finding] = []
    projects: list[tuple[Project, int, Counter]] = []
    for project in chosen:
        root = fetch(project.pin, project.folders)
        with tempfile.TemporaryDirectory() as cache:
            found = check(project.name, root, Path(cache))
            found_jobs = jobs(root, Path(cache))
        findings.extend(found)
        projects.append((project, count_lines(root), found_jobs))
        print(f"{project.name}: {len(found)} findings, {sum(found_jobs.values())} jobs", file=sys.stderr)
    return findings, projects


# A kept run lets the report be built again once verdicts arrive or a rule changes its place
# (the report labels rules by this checkout's preview flags), without running bgcheck again.
def save_run(path: Path, findings: list[Finding], projects: list[tuple[Project, int, Counter]]) -> None:
    data = {
        "findings": [asdict(f) for f in findings],
        "projects": [{"name": p.name, "pin": p.pin, "lines": lines, "jobs": dict(found_jobs)} for p, lines, found_jobs in projects],
    }
    path.write_text(json.dumps(data), encoding="utf-8")


def load_run(path: Path, chosen: list[Project]) -> tuple[list[Finding], list[tuple[Project, int, Counter]]]:
    """The kept run's findings and projects, for the chosen projects; a project the run did not
    check, or checked at another version, is an error (its findings would be missing)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    kept = {p["name"]: p for p in data["projects"]}
    missing = [p.name for p in chosen if p.name not in kept or kept[p.name]["pin"] != p.pin]
    if missing:
        sys.exit(f"ecosystem: {path} has no run of {', '.join(missing)}")
    names = {p.name for p in chosen}
    findings = [Finding(**f) for f in data["findings"] if f["project"] in names]
    projects = [(p, kept[p.name]["lines"], Counter(kept[p.name]["jobs"])) for p in chosen]
    return findings, projects


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", action="append", help="only this project (repeatable)")
    parser.add_argument("--packets", type=Path, help="write the findings that want a verdict, a file per project, to this folder")
    parser.add_argument("--findings", type=Path, help="write every finding, with its half and verdict, to this TSV file")
    parser.add_argument("--save-run", type=Path, help="keep what bgcheck found (findings, lines, jobs) in this JSON file")
    parser.add_argument("--from-run", type=Path, help="report a run kept with --save-run instead of running bgcheck again")
    args = parser.parse_args()

    chosen = [p for p in PROJECTS if not args.project or p.name in args.project]
    if not chosen:
        sys.exit(f"ecosystem: no such project; known: {', '.join(p.name for p in PROJECTS)}")
    if args.from_run:
        findings, projects = load_run(args.from_run, chosen)
    else:
        findings, projects = run(chosen)
    if args.save_run:
        save_run(args.save_run, findings, projects)

    verdicts = read_verdicts()
    report, unjudged = build_report(findings, verdicts, projects, halves(PROJECTS), preview_rules(), rule_codes())
    print(report)
    if not args.project:
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(report + "\n", encoding="utf-8")
        write_readme_table(report, tables=1)
    if args.findings:
        write_findings(findings, verdicts, halves(PROJECTS), args.findings)
    if args.packets:
        count = write_packets(findings, verdicts, args.packets)
        print(f"ecosystem: {count} findings to judge written to {args.packets}", file=sys.stderr)
    return 1 if unjudged else 0


if __name__ == "__main__":
    sys.exit(main())
