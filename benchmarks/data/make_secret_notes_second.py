"""Write secret_notes_second.jsonl: a second labelled set of agent memory notes for the secret detector.

Every note is written here, in this file. Random-looking parts (tokens, keys, ids, digests) come from one
`random.Random` with a fixed seed, drawn in a fixed order, so running this again rewrites the file byte for byte.
None of the values is a real credential.

Labels:
- "secret": the note holds a usable credential value (password, PIN, passphrase, API key or token, private key,
  connection string with a password, basic-auth URL, session cookie, OAuth client secret, webhook URL carrying its
  secret, TOTP seed, recovery codes, seed phrase, access-granting licence key, bearer JWT).
- "benign": a careful reader finds no usable credential in it (talk about credentials without the value,
  placeholders, redactions, references to a secret store, hashes and digests including password hashes, ids,
  public keys and certificates, Wi-Fi names alone, flag and variable names).

Split: dev iff int(sha256(id).hexdigest(), 16) % 2 == 0, else heldout. Ids are "s2-NNN-<kind>", numbered after a
seeded shuffle of the notes.

Usage: python benchmarks/data/make_secret_notes_second.py [output_path]
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import sys
from collections import Counter
from pathlib import Path

OUT = Path(__file__).resolve().with_name("secret_notes_second.jsonl")
ABOUT = {
    "_about": "second set; split rule: dev iff int(sha256(id).hexdigest(),16) % 2 == 0; fixed before any measurement"
}

R = random.Random(7_302_211)

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def rs(n: int, alphabet: str = ALNUM) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def hx(n: int) -> str:
    return rs(n, HEX)


def uuid() -> str:
    return f"{hx(8)}-{hx(4)}-4{hx(3)}-{R.choice('89ab')}{hx(3)}-{hx(12)}"


def digits(n: int) -> str:
    return rs(n, DIGITS)


def b64enc(s: str) -> str:
    return base64.b64encode(s.encode()).decode()


def b64url_json(obj: dict) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(payload: dict, alg: str = "HS256") -> str:
    return f"{b64url_json({'alg': alg, 'typ': 'JWT'})}.{b64url_json(payload)}.{rs(43, B64URL)}"


def pem_lines(n_chars: int, width: int = 64, prefix: str = "") -> str:
    body = prefix + rs(n_chars - len(prefix), B64)
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


def pem(label: str, n_chars: int, prefix: str = "") -> str:
    return f"-----BEGIN {label}-----\n{pem_lines(n_chars, prefix=prefix)}\n-----END {label}-----"


WORDS = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve "
    "acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult "
    "advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album "
    "alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount "
    "amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique "
    "anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor army around "
    "arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete "
    "atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake "
    "aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner "
    "bar barely bargain barrel base basic basket battle beach bean beauty because become beef before begin behave "
    "behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind biology bird "
    "birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat "
    "body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass "
    "brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush "
    "bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter "
    "buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe "
    "canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual"
).split()


def seed_words(n: int) -> list[str]:
    return [R.choice(WORDS) for _ in range(n)]


NOTES: list[tuple[str, str, str]] = []


def S(kind: str, text: str) -> None:
    NOTES.append(("secret", kind, text.strip("\n")))


def B(kind: str, text: str) -> None:
    NOTES.append(("benign", kind, text.strip("\n")))


# ---------------------------------------------------------------------------------------------------------------
# SECRET notes
# ---------------------------------------------------------------------------------------------------------------

# env_file -------------------------------------------------------------------------------------------------------
S(
    "env_file",
    f"""
Session 2024-05-14 — billing-service local setup
- Cloned billing-service, ran `make bootstrap`, migrations OK.
- Priya pasted the working .env in chat, saving it here so I don't have to ask again:
```
DATABASE_URL=postgres://billing:{rs(18)}@localhost:5432/billing
STRIPE_SECRET_KEY=sk_live_51{rs(22)}{rs(70)}
SENDGRID_API_KEY=SG.{rs(22, B64URL)}.{rs(43, B64URL)}
LOG_LEVEL=debug
```
- Next: get the webhook tests green.
""",
)

S(
    "env_file",
    f"""
next-shop `.env.local` that finally made Google login work:

NEXTAUTH_URL=http://localhost:3000
NEXTAUTH_SECRET={rs(43, B64)}=
GOOGLE_CLIENT_ID={digits(12)}-{rs(32, LOWER + DIGITS)}.apps.googleusercontent.com
GOOGLE_CLIENT_SECRET=GOCSPX-{rs(28, B64URL)}
""",
)

S(
    "env_file",
    f"""
Fix for the 401 on prod deploy: `.env.production` was missing `RESEND_API_KEY=re_{rs(8)}_{rs(24)}` — added it back.
""",
)

# vendor_key_prose -----------------------------------------------------------------------------------------------
S(
    "vendor_key_prose",
    f"""
User asked me to remember the Stripe restricted key for the monthly revenue script: rk_live_51{rs(22)}{rs(50)} (read-only on charges and payouts).
""",
)

S(
    "vendor_key_prose",
    f"""
Twilio for the appointment SMS reminders:
* Account SID: AC{hx(32)}
* Auth token: {hx(32)}
* From number: +1 415 555 0137
""",
)

S(
    "vendor_key_prose",
    f"""
Shopify — custom app "inventory-sync" on the ceramics store. Admin API access token is shpat_{hx(32)}; scopes read_products, write_inventory.
""",
)

S(
    "vendor_key_prose",
    f"""
For the release pipeline, sentry-cli needs SENTRY_AUTH_TOKEN. The org token Marta generated is sntrys_{rs(120, B64URL)}
""",
)

S(
    "vendor_key_prose",
    f"""
Square production access token for the café POS integration → EAAAE{rs(59, B64URL)}
Location id L{rs(12, UPPER + DIGITS)}.
""",
)

# opaque_api_key -------------------------------------------------------------------------------------------------
S(
    "opaque_api_key",
    f"""
Datadog (staging org):
  api key  {hx(32)}
  app key  {hx(40)}
Used by the `dd-export` cron on build-02.
""",
)

S(
    "opaque_api_key",
    f"""
Newsletter: Mailchimp API key is {hx(32)}-us14, audience "Friends of the Garden".
""",
)

S(
    "opaque_api_key",
    f"""
Heroku: `heroku auth:token` printed {uuid()} — that's what the deploy script reads as HEROKU_API_KEY.
""",
)

S(
    "opaque_api_key",
    f"""
Cloudflare API token for DNS edits on the family domain (Zone:DNS:Edit only): {rs(40, ALNUM + "_-")}
""",
)

# aws_credentials ------------------------------------------------------------------------------------------------
S(
    "aws_credentials",
    f"""
~/.aws/credentials on the media server, profile used by the nightly photo backup:
```ini
[backup]
aws_access_key_id = AKIA{rs(16, UPPER + "234567")}
aws_secret_access_key = {rs(40, B64)}
region = eu-west-1
```
""",
)

S(
    "aws_credentials",
    f"""
AWS keys for the `receipts-archive` bucket (IAM user receipts-uploader): AKIA{rs(16, UPPER + "234567")} / {rs(40, B64)}
""",
)

S(
    "aws_credentials",
    f"""
Temporary creds from the SSO session, used to reproduce the S3 403:
export AWS_ACCESS_KEY_ID=ASIA{rs(16, UPPER + "234567")}
export AWS_SECRET_ACCESS_KEY={rs(40, B64)}
export AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{rs(300, B64)}
""",
)

# cloud_service_key ----------------------------------------------------------------------------------------------
_gcp_pk = pem("PRIVATE KEY", 1620, prefix="MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC").replace("\n", "\\n")
S(
    "cloud_service_key",
    f"""
GCP service account for the analytics exporter (project acme-analytics-prod). Key file content:
{{
  "type": "service_account",
  "project_id": "acme-analytics-prod",
  "private_key_id": "{hx(40)}",
  "private_key": "{_gcp_pk}\\n",
  "client_email": "exporter@acme-analytics-prod.iam.gserviceaccount.com",
  "client_id": "{digits(21)}",
  "token_uri": "https://oauth2.googleapis.com/token"
}}
""",
)

S(
    "cloud_service_key",
    f"""
Azure blob storage for the invoices PDFs. Connection string from the portal:
DefaultEndpointsProtocol=https;AccountName=invoicesstprod;AccountKey={rs(86, B64)}==;EndpointSuffix=core.windows.net
""",
)

# vcs_token ------------------------------------------------------------------------------------------------------
S(
    "vcs_token",
    f"""
GitHub PAT for the release bot account (classic, repo + workflow): ghp_{rs(36)}
Expires in 90 days.
""",
)

S(
    "vcs_token",
    f"""
`git remote -v` in ~/src/infra-live:
origin  https://x-access-token:ghs_{rs(36)}@github.com/acme-corp/infra-live.git (fetch)
origin  https://x-access-token:ghs_{rs(36)}@github.com/acme-corp/infra-live.git (push)
""",
)

S(
    "vcs_token",
    f"""
Clone command that works from the build box (the SSH key isn't on it yet):
git clone https://oauth2:glpat-{rs(20, ALNUM + "_-")}@gitlab.com/lumen-labs/firmware.git
""",
)

S(
    "vcs_token",
    f"""
CI note: fine-grained token for pushing tags to the homebrew tap lives as HOMEBREW_TAP_TOKEN; value the user gave me is github_pat_11{rs(20, UPPER + DIGITS)}_{rs(59)}
""",
)

# chat_bot_token -------------------------------------------------------------------------------------------------
S(
    "chat_bot_token",
    f"""
Slack bot "standup-bot" in the eng workspace. Bot User OAuth Token: xoxb-{digits(12)}-{digits(13)}-{rs(24)}
""",
)

S(
    "chat_bot_token",
    f"""
Discord bot for the D&D server (dice roller). Token: {b64enc(digits(18)).rstrip("=")}.{rs(6, B64URL)}.{rs(38, B64URL)}
""",
)

S(
    "chat_bot_token",
    f"""
Telegram bot @PlantWaterBot created with BotFather, token {digits(10)}:AA{rs(33, B64URL)} — chat id of the family group is -100{digits(10)}.
""",
)

# webhook_url ----------------------------------------------------------------------------------------------------
S(
    "webhook_url",
    f"""
Alertmanager → Slack #ops-alerts via incoming webhook https://hooks.slack.com/services/T{rs(10, UPPER + DIGITS)}/B{rs(10, UPPER + DIGITS)}/{rs(24)}
""",
)

S(
    "webhook_url",
    f"""
Uptime Kuma notification target (Discord #homelab): https://discord.com/api/webhooks/{digits(19)}/{rs(68, B64URL)}
""",
)

S(
    "webhook_url",
    f"""
The deploy hook Render gave us — anyone with this URL can trigger a deploy of prod:
https://api.render.com/deploy/srv-{rs(20, LOWER + DIGITS)}?key={rs(11, B64URL)}
""",
)

# ai_api_key -----------------------------------------------------------------------------------------------------
S(
    "ai_api_key",
    f"""
Project "recipe-bot": OpenAI key sk-proj-{rs(74, B64URL)}T3BlbkFJ{rs(74, B64URL)}
""",
)

S(
    "ai_api_key",
    f"""
- user switched the summarizer to Claude
- ANTHROPIC_API_KEY=sk-ant-api03-{rs(93, B64URL)}AA
- model: claude-3-5-sonnet, max_tokens 2048
""",
)

S(
    "ai_api_key",
    f"""
Hugging Face write token (for pushing the fine-tuned adapter): hf_{rs(34)}
""",
)

# private_key ----------------------------------------------------------------------------------------------------
S(
    "private_key",
    f"""
Deploy key for the blog repo (user pasted it so I could set up the new VPS):
{pem("OPENSSH PRIVATE KEY", 400, prefix="b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACD")}
""",
)

S(
    "private_key",
    f"""
TLS key for mqtt.home.lan (self-signed, matches the cert already on the broker):
{pem("RSA PRIVATE KEY", 1640, prefix="MIIEowIBAAKCAQEA")}
""",
)

S(
    "private_key",
    f"""
APNs auth key AuthKey_{rs(10, UPPER + DIGITS)}.p8 for the iOS app push (Team ID {rs(10, UPPER + DIGITS)}):
{pem("PRIVATE KEY", 200, prefix="MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg")}
""",
)

# db_connection_url ----------------------------------------------------------------------------------------------
S(
    "db_connection_url",
    f"""
Prod read replica for ad-hoc queries: postgresql://analyst:{rs(20)}@db-replica-1.internal.acme.io:5432/warehouse?sslmode=require
""",
)

S(
    "db_connection_url",
    f"""
MongoDB Atlas cluster for the side project:
mongodb+srv://app_user:{rs(16)}@cluster0.{rs(5, LOWER + DIGITS)}.mongodb.net/recipes?retryWrites=true&w=majority
""",
)

S(
    "db_connection_url",
    f"""
Celery broker moved to the managed Redis: REDIS_URL=rediss://default:{rs(32)}@eu1-sharp-owl-3{digits(4)}.upstash.io:6379
""",
)

S(
    "db_connection_url",
    f"""
The legacy reporting tool (Java) connects with
jdbc:sqlserver://sql-legacy.corp.local:1433;databaseName=Reporting;user=rpt_reader;password=Spr1ng-{rs(8)}!;encrypt=true
""",
)

# basic_auth_url -------------------------------------------------------------------------------------------------
S(
    "basic_auth_url",
    f"""
Grafana on the homelab: https://admin:{rs(14)}@grafana.home.arpa:3000/d/node-exporter
""",
)

S(
    "basic_auth_url",
    f"""
pip.conf on the CI runner (private index):
[global]
index-url = https://ci-reader:{rs(32, LOWER + DIGITS)}@pypi.internal.acme.io/simple/
""",
)

# curl_credential ------------------------------------------------------------------------------------------------
S(
    "curl_credential",
    f"""
Repro for the Jira webhook bug:
curl -u ops-bot@acme.io:ATATT3xFfGF0{rs(180, B64URL)}={hx(8).upper()} \\
  -H 'Content-Type: application/json' \\
  https://acme.atlassian.net/rest/api/3/issue/OPS-1432
""",
)

S(
    "curl_credential",
    f"""
Works:
curl -s -H "Authorization: Bearer {rs(40, ALNUM)}" https://api.pagerduty-clone.internal/v2/incidents?status=triggered | jq '.incidents | length'
""",
)

S(
    "curl_credential",
    f"""
httpie call to the router's API (user ran it while I watched):
http -a admin:{rs(12)} POST http://192.168.1.1/api/v1/reboot
""",
)

S(
    "curl_credential",
    f"""
Firmware mirror download for the 3D printer:
wget --user=makers --password='{rs(10)}#{digits(2)}' https://files.makerspace-nord.de/firmware/klipper-latest.bin
""",
)

# credential_dotfile ---------------------------------------------------------------------------------------------
S(
    "credential_dotfile",
    f"""
~/.netrc on the build box (needed for `go get` from the private GitLab):
machine gitlab.acme.io
  login deploy-bot
  password {rs(24)}
""",
)

S(
    "credential_dotfile",
    f"""
Added to ~/.pgpass so the backup cron stops prompting:
db-primary.internal:5432:*:backup_user:{rs(22)}
""",
)

S(
    "credential_dotfile",
    f"""
.npmrc in the monorepo root (publishing @acme/ui):
@acme:registry=https://registry.npmjs.org/
//registry.npmjs.org/:_authToken=npm_{rs(36)}
""",
)

_docker_auth = b64enc(f"acmebuild:dckr_pat_{rs(27, B64URL)}")
S(
    "credential_dotfile",
    f"""
~/.docker/config.json on runner-3:
{{
  "auths": {{
    "https://index.docker.io/v1/": {{ "auth": "{_docker_auth}" }}
  }}
}}
""",
)

S(
    "credential_dotfile",
    f"""
kubeconfig for the staging cluster (service account ci-deployer):
apiVersion: v1
kind: Config
clusters:
- name: staging
  cluster:
    server: https://10.20.0.10:6443
    insecure-skip-tls-verify: true
users:
- name: ci-deployer
  user:
    token: {jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "sub": "system:serviceaccount:ci:ci-deployer"}, alg="RS256")}
contexts:
- name: staging
  context: {{cluster: staging, user: ci-deployer}}
current-context: staging
""",
)

# config_yaml ----------------------------------------------------------------------------------------------------
S(
    "config_yaml",
    f"""
application-prod.yml for the orders service (Spring):
spring:
  datasource:
    url: jdbc:postgresql://orders-db:5432/orders
    username: orders_app
    password: "{rs(16)}"
  rabbitmq:
    host: mq.internal
""",
)

S(
    "config_yaml",
    f"""
docker-compose.yml for the Nextcloud box:
services:
  db:
    image: mariadb:10.11
    environment:
      MYSQL_ROOT_PASSWORD: "Wint3rGarden!{digits(3)}"
      MYSQL_PASSWORD: "{rs(18)}"
      MYSQL_DATABASE: nextcloud
""",
)

S(
    "config_yaml",
    f"""
Home Assistant secrets.yaml (the user asked me to keep a copy):
mqtt_password: {rs(12)}
ring_password: "Maple{digits(4)}!"
latitude: 52.37
""",
)

# config_json ----------------------------------------------------------------------------------------------------
S(
    "config_json",
    f"""
appsettings.Production.json (CRM api):
{{
  "ConnectionStrings": {{
    "Default": "Server=tcp:crm-sql.database.windows.net,1433;Database=crm;User ID=crm_app;Password={rs(14)}$;Encrypt=True;"
  }},
  "Logging": {{ "LogLevel": {{ "Default": "Warning" }} }}
}}
""",
)

S(
    "config_json",
    f"""
Paddle config for the desktop app licensing server:
{{"vendor_id": {digits(6)}, "api_key": "{hx(50)}", "sandbox": false}}
""",
)

S(
    "config_json",
    f"""
VS Code settings.json → SQLTools connection the user uses daily:
"sqltools.connections": [
  {{ "name": "ledger-prod", "driver": "MySQL", "server": "10.0.4.21", "port": 3306,
    "database": "ledger", "username": "ledger_ro", "password": "L3dger-{rs(9)}" }}
]
""",
)

# config_other (toml / ini / xml) ---------------------------------------------------------------------------------
S(
    "config_other",
    f"""
config.toml for the Matrix bridge bot:
[homeserver]
url = "https://matrix.home.arpa"

[bot]
user = "@bridge:home.arpa"
access_token = "syt_{rs(12, LOWER)}_{rs(20)}_{rs(6)}"
""",
)

S(
    "config_other",
    f"""
The old PHP shop reads /etc/shop/db.ini:
[database]
host = 127.0.0.1
user = shop
password = {rs(11)}!{digits(2)}
name = shop_prod
""",
)

S(
    "config_other",
    f"""
Maven ~/.m2/settings.xml on the Jenkins agent:
<settings>
  <servers>
    <server>
      <id>acme-nexus</id>
      <username>jenkins</username>
      <password>{rs(20)}</password>
    </server>
  </servers>
</settings>
""",
)

# cli_password ---------------------------------------------------------------------------------------------------
S(
    "cli_password",
    f"""
How I got onto the old NAS (no key auth set up): sshpass -p 'Gr33nTea{digits(3)}' ssh admin@192.168.1.20
""",
)

S(
    "cli_password",
    f"""
Dumped the forum DB before the upgrade:
mysqldump -u root -p'{rs(12)}' --single-transaction phpbb > phpbb-2024-06-02.sql
""",
)

S(
    "cli_password",
    f"""
one-liner for the weekly report query:
PGPASSWORD={rs(18)} psql -h reports.internal -U report_ro -d analytics -f weekly.sql
""",
)

S(
    "cli_password",
    f"""
PowerShell used to map the office share on the reception PC:
$pw = ConvertTo-SecureString "Recepti0n-{rs(6)}" -AsPlainText -Force
$cred = New-Object System.Management.Automation.PSCredential ("OFFICE\\reception", $pw)
New-PSDrive -Name S -PSProvider FileSystem -Root \\\\fs01\\shared -Credential $cred -Persist
""",
)

# infra_config_secret --------------------------------------------------------------------------------------------
S(
    "infra_config_secret",
    f"""
terraform/providers.tf in the dns repo (still hard-coded, TODO move to env):
provider "cloudflare" {{
  api_token = "{rs(40, ALNUM + "_-")}"
}}
provider "hcloud" {{
  token = "{rs(64)}"
}}
""",
)

S(
    "infra_config_secret",
    f"""
group_vars/webservers.yml (not vaulted yet!):
ansible_user: deploy
ansible_become_password: "{rs(14)}"
nginx_worker_processes: auto
""",
)

S(
    "infra_config_secret",
    f"""
values-prod.yaml for the bitnami postgresql chart:
auth:
  username: app
  password: {rs(20)}
  postgresPassword: {rs(20)}
  database: app
primary:
  persistence:
    size: 50Gi
""",
)

S(
    "infra_config_secret",
    f"""
.github/workflows/nightly.yml the intern committed:
jobs:
  report:
    runs-on: ubuntu-latest
    env:
      SNOWFLAKE_USER: REPORTING_SVC
      SNOWFLAKE_PASSWORD: "{rs(16)}"
    steps:
      - uses: actions/checkout@v4
      - run: python nightly_report.py
""",
)

# prose_password -------------------------------------------------------------------------------------------------
S(
    "prose_password",
    """
The user told me the router admin password is BlueHeron-7731 (admin page at 192.168.0.1).
""",
)

S(
    "prose_password",
    """
Synology NAS: login is `dan`, password is Quokka!harbour19. He wants me to remind him to turn on 2FA.
""",
)

S(
    "prose_password",
    """
sudo on the old ThinkPad = "marmalade2011" (user said it's fine to store, the laptop is offline).
""",
)

S(
    "prose_password",
    """
Jenkins at ci.lumen.local — admin / Jenk1ns-Lumen-2023
""",
)

# prose_password_es / de / fr ------------------------------------------------------------------------------------
S(
    "prose_password_es",
    """
Notas de la sesión: el usuario me dijo que la contraseña del correo de la tienda (ventas@ferreteria-lopez.es) es Tornillo#2024 y que no la cambie.
""",
)

S(
    "prose_password_es",
    """
Clave del panel del hosting: usuario carmen.ruiz, contraseña "Gato.Naranja.88"
""",
)

S(
    "prose_password_de",
    """
Zugang zum Vereins-Laptop: Benutzer Kassenwart, Passwort Sommerfest2024! — Herr Becker möchte, dass ich das für die Übergabe notiere.
""",
)

S(
    "prose_password_de",
    """
- Passwort für das FRITZ!Box-Menü: kellerkatze17
- Tür zum Fahrradkeller: Schlüssel hängt im Flur
""",
)

S(
    "prose_password_fr",
    """
Mot de passe de la box Internet (interface d'admin) : Marmotte-Alpine-56. L'utilisateur préfère que je le garde ici.
""",
)

S(
    "prose_password_fr",
    """
Compte Ameli de Mme Durand : identifiant = n° de sécu, mdp : Lavande1962
""",
)

# household_code -------------------------------------------------------------------------------------------------
S(
    "household_code",
    """
Household facts:
- Garage keypad code: 4471
- Bins go out Tuesday night
- Spare key: with Mrs. Okafor at no. 12
""",
)

S(
    "household_code",
    """
Alarm system (Verisure): disarm PIN 2580, duress PIN 2581 (silently calls the monitoring centre). Panel is behind the coat rack.
""",
)

S(
    "household_code",
    """
Airbnb guest instructions draft — lockbox by the side gate, code 1-9-0-7, then the front door smart lock code is 558213#.
""",
)

# wifi_password --------------------------------------------------------------------------------------------------
S(
    "wifi_password",
    """
Wi-Fi at the lake house: SSID "Lakeside_5G", password loonsong2019
""",
)

S(
    "wifi_password",
    """
WIFI:T:WPA;S:Casa-Moreno;P:pan-con-tomate-77;;  ← string encoded in the QR code on the fridge
""",
)

S(
    "wifi_password",
    """
Guest network for the party: HomeGuest / welcome-friends-2024. Main network key (don't share): 8Xq-trellis-Ponder-31
""",
)

# personal_account_login -----------------------------------------------------------------------------------------
S(
    "personal_account_login",
    """
The user told me his mom's Netflix login is maria.k1958@gmail.com / Sunflower58 — she keeps forgetting it.
""",
)

S(
    "personal_account_login",
    """
Bank (Sparkasse online banking) for the household account: Anmeldename hkoenig77, PIN 71934. User wants me to help with the monthly export.
""",
)

S(
    "personal_account_login",
    """
Kid's Roblox account: username PixelPanda_Lu, password Panda!Lu2015 (parent controls PIN 3390).
""",
)

# totp_seed ------------------------------------------------------------------------------------------------------
S(
    "totp_seed",
    f"""
Shared ops@ 2FA — so whoever is on call can generate codes:
otpauth://totp/AWS:ops%40acme.io?secret={rs(32, B32)}&issuer=AWS&digits=6&period=30
""",
)

S(
    "totp_seed",
    f"""
Backup of the authenticator seed for the domain registrar account (Namecheap): {" ".join(rs(4, B32).lower() for _ in range(8))}
""",
)

# recovery_codes -------------------------------------------------------------------------------------------------
S(
    "recovery_codes",
    "GitHub recovery codes for @lena-dev (user asked me to keep them somewhere safe):\n"
    + "\n".join(f"{hx(5)}-{hx(5)}" for _ in range(8)),
)

S(
    "recovery_codes",
    "Google account backup codes (print these later):\n" + "\n".join(f"{digits(4)} {digits(4)}" for _ in range(10)),
)

# seed_phrase ----------------------------------------------------------------------------------------------------
S("seed_phrase", "Ledger recovery phrase the user read out, he wants a second copy:\n" + " ".join(seed_words(24)))

S(
    "seed_phrase",
    "MetaMask (hot wallet, small amounts only) secret recovery phrase:\n"
    + "\n".join(f"{i + 1}. {w}" for i, w in enumerate(seed_words(12))),
)

# license_key ----------------------------------------------------------------------------------------------------
_lic_body = "\n".join(" ".join(hx(8).upper() for _ in range(8)) for _ in range(4))
S(
    "license_key",
    f"""
Sublime Text license (registered to Theo Brandt) — paste into Help > Enter License:
----- BEGIN LICENSE -----
Theo Brandt
Single User License
EA7E-{digits(6)}
{_lic_body}
------ END LICENSE ------
""",
)

S(
    "license_key",
    f"""
Windows 11 Pro product key for the studio PC: {"-".join(rs(5, "BCDFGHJKMPQRTVWXY2346789") for _ in range(5))}
""",
)

# session_cookie -------------------------------------------------------------------------------------------------
S(
    "session_cookie",
    f"""
Scraper for the supplier portal: log in in the browser, then reuse the cookie:
Cookie: sessionid={rs(32, LOWER + DIGITS)}; csrftoken={rs(64)}
""",
)

S(
    "session_cookie",
    f"""
Copied from devtools so I could reproduce the bug as the user:
__Secure-next-auth.session-token={rs(40, B64URL)}..{rs(22, B64URL)}.{rs(280, B64URL)}.{rs(22, B64URL)}
""",
)

# oauth_client_secret --------------------------------------------------------------------------------------------
S(
    "oauth_client_secret",
    f"""
Google OAuth client "calendar-sync (web)":
client_id: {digits(12)}-{rs(32, LOWER + DIGITS)}.apps.googleusercontent.com
client_secret: GOCSPX-{rs(28, B64URL)}
""",
)

S(
    "oauth_client_secret",
    f"""
Entra ID app registration "intranet-sso" — tenant {uuid()}, client {uuid()}, secret value {rs(3)}8Q~{rs(34, ALNUM + "_.~-")} (expires 2025-11-30).
""",
)

S(
    "oauth_client_secret",
    f"""
Spotify dev app for the kitchen display: client id {hx(32)}, client secret {hx(32)}
""",
)

# jwt_bearer -----------------------------------------------------------------------------------------------------
S(
    "jwt_bearer",
    f"""
Supabase project "habit-tracker": the service_role key (bypasses RLS!) is
{jwt({"iss": "supabase", "ref": rs(20, LOWER), "role": "service_role", "iat": 1712000000, "exp": 2027576000})}
""",
)

S(
    "jwt_bearer",
    f"""
Reproduced the 500 with the user's own token (valid until tomorrow):
Authorization: Bearer {jwt({"sub": "u_" + digits(8), "email": "ana@acme.io", "scope": "admin", "exp": 1718000000}, alg="RS256")}
""",
)

# password_markdown ----------------------------------------------------------------------------------------------
S(
    "password_markdown",
    f"""
Accounts for the shop handover:

| Service        | User              | Password            |
|----------------|-------------------|---------------------|
| WooCommerce    | shopadmin         | Cinnamon!Roll42     |
| Hosting panel  | ferreira.design   | {rs(12)}        |
| Newsletter     | hello@bakery.pt   | (uses Google login) |
""",
)

S(
    "password_markdown",
    """
- Printer web UI login: `admin` / `PrintMe-3000`
""",
)

S(
    "password_markdown",
    """
Remember: the jump host password is `kU7#pl4net-ride` — user says the key-based login is broken until IT fixes LDAP.
""",
)

# obfuscated_password --------------------------------------------------------------------------------------------
S(
    "obfuscated_password",
    """
Router раssword (user typed it into chat): Ѕtarling-Nest-88
""",
)

S(
    "obfuscated_password",
    """
NAS admin pasword is:
Velvet-
Thunder-
0427
(user split it over three messages)
""",
)

S(
    "obfuscated_password",
    """
pw for the vpn is "h a r b o r l i g h t 6 6" without the spaces
""",
)

S(
    "obfuscated_password",
    """
passwrod for the dentist portal → Molar.Bear.2022 (typo in the user's message was theirs, the value is right)
""",
)

# shell_history --------------------------------------------------------------------------------------------------
S(
    "shell_history",
    f"""
Relevant bits of history from the session:
  501  cd ~/src/checkout-api
  502  export GITHUB_TOKEN=ghp_{rs(36)}
  503  gh release list --limit 5
  504  make release VERSION=2.8.1
""",
)

S(
    "shell_history",
    f"""
Commands the user ran to set prod secrets on Fly:
$ fly secrets set -a invoice-api POSTMARK_TOKEN={uuid()} DB_PASSWORD='{rs(16)}'
$ fly deploy -a invoice-api
""",
)

# long_note_buried -----------------------------------------------------------------------------------------------
S(
    "long_note_buried",
    f"""
# Session summary — 2024-06-11 — migrating the family photo archive

## Context
- User (Jonas) wants to move ~380 GB of photos from the old Synology to Backblaze B2 + a local Immich instance.
- Photos are in /volume1/photo, organised by year; 2009–2013 have duplicated folders from an iPhoto export.
- He's not in a hurry; priority is "don't lose anything", second is cost.

## What we did
1. Checked disk health on the Synology: both drives OK, one has 12 reallocated sectors, watch it.
2. Installed Docker on the mini PC (Ubuntu 22.04), Immich via docker compose v1.105.
3. Pointed Immich's external library at the NFS mount /mnt/photos (read-only).
4. Ran the first scan: 61,204 assets, 1,312 duplicates flagged.
5. Created B2 bucket `kessler-photos-archive` (private, lifecycle: keep all versions 30 days).
6. Created an application key restricted to that bucket:
   keyID: 005{hx(22)}
   applicationKey: K005{rs(27, ALNUM + "/+")}
7. Configured rclone remote `b2photos` with those, tested `rclone lsd b2photos:` — works.
8. Started `rclone sync /mnt/photos b2photos:kessler-photos-archive --transfers 8 --fast-list` in tmux.

## Decisions
- Keep the Synology as cold backup until the B2 upload is verified with `rclone check`.
- Don't use Immich's face recognition on the kids' photos yet; Jonas wants to talk to his wife first.
- Monthly cost estimate: ~$2.30 storage at current size.

## Open questions
- Does the Immich mobile app need a separate user for his wife? Probably yes.
- Should 2009–2013 duplicates be deleted or just hidden?

## Next session
- Verify upload (`rclone check --one-way`).
- Set up Immich users.
- Schedule weekly sync via systemd timer instead of tmux.
- Look at the reallocated sectors again.
""",
)

S(
    "long_note_buried",
    f"""
Onboarding notes for the new contractor environment (written for future me)

Repos
- api-gateway (Go 1.22) — main service, owns auth and rate limiting
- web (Next.js 14) — customer dashboard
- workers (Python 3.11, Celery) — emails, exports, billing sync
- infra (Terraform + Helm)

Local setup that worked
- `make dev` brings up postgres 15, redis 7, minio, mailpit
- seed data: `make seed` (takes ~2 min)
- web needs `pnpm i` with node 20, not 22 (sharp build fails on 22)
- workers: `uv sync`, then `uv run celery -A workers worker -l info`

Gotchas
- The gateway refuses to start if JWT_AUDIENCE is empty; set it to `local`.
- Minio console is on :9001, not :9000.
- Mailpit catches every outgoing email on :8025.
- Feature flags come from the `flags` table, not env vars anymore.

Shared staging credentials (the team lead said these are fine to keep in notes, staging only)
- staging admin user: admin@staging.acme.io
- staging admin password: Staging-Admin-{rs(8)}
- staging Postgres: postgres://acme:{rs(20)}@staging-db.acme.io:5432/acme

Testing
- Go: `go test ./... -race`
- Web: `pnpm test` (vitest), `pnpm e2e` (playwright, needs `make dev` running)
- Workers: `uv run pytest -q`

Deploys
- staging: merge to main → GitHub Actions → Argo CD sync (automatic)
- prod: tag `vX.Y.Z` → manual approval in Actions → Argo CD
- rollback: `argocd app rollback gateway-prod <rev>`

People
- Ines: owns billing sync; ask before touching workers/billing
- Raj: infra; on leave until the 24th
- Mo: web; prefers PR comments over Slack DMs

Open items
- Flaky test: workers/tests/test_exports.py::test_large_csv (timeouts on CI)
- Upgrade Celery to 5.4 (blocked on redis-py pin)
""",
)

S(
    "long_note_buried",
    f"""
Weekly household admin — running log

Mon
- Paid the electricity bill (Vattenfall), €84.12, confirmation in email.
- Booked the car's MOT for the 19th at 09:30, Halfords Brent Cross.
- Ordered replacement filter for the cooker hood (model CH-60X).

Tue
- School trip form for Amelie signed and sent.
- Grandma's pharmacy repeat prescription: ready Thursday.
- Council tax direct debit moved to the 5th of each month.

Wed
- Renewed home insurance with the same provider, premium went up 9%.
- The user asked me to note the new insurer portal login since the old one was retired:
  portal: myhome.aviva-example.co.uk
  username: r.hollis1983
  password: Thistle&Kettle-{digits(2)}
- Called the plumber about the drip under the kitchen sink; coming Friday between 8 and 12.

Thu
- Picked up the prescription.
- Sorted the kids' winter clothes, three bags to the charity shop.
- Cancelled the unused Disney+ subscription (ends on the 30th).

Fri
- Plumber fixed the trap seal, £65 cash.
- Confirmed Saturday swim lessons moved to 10:15.
- Meal plan for next week drafted (in the Notes app).

Sat
- Swim lessons.
- Bought birthday present for Leo's party (Lego set, £29.99).

Sun
- Nothing scheduled.

To carry over
- Passport renewal for Amelie (expires in March).
- Check whether the boiler service is due (last one in October).
""",
)

S(
    "long_note_buried",
    f"""
Incident retro notes — checkout latency spike, 2024-04-02

Timeline (UTC)
- 13:02 p95 latency on /checkout rises from 300ms to 2.4s
- 13:05 PagerDuty alert fires, Sam acks
- 13:09 Sam sees Postgres CPU at 95% on the primary
- 13:14 pg_stat_activity shows ~400 identical queries on `orders` without index usage
- 13:18 Suspect: yesterday's migration 0142 dropped idx_orders_customer_created
- 13:21 Decision: recreate index CONCURRENTLY rather than roll back the migration
- 13:40 Index built, latency back to normal by 13:43
- 13:55 All clear

Root cause
- Migration 0142 renamed a column; the ORM regenerated the index with a different name and the old one
  was dropped, but the new one was only created in the test schema because of a conditional in the migration.

What went well
- Alert fired within 3 minutes.
- Runbook for "DB CPU high" was accurate.

What went badly
- Nobody could find the read-only DB credentials for 10 minutes, so Sam used the superuser.
  For the record, the superuser connection he used was
  psql "host=pg-primary.prod.internal port=5432 user=postgres password={rs(24)} dbname=shop sslmode=require"
  → this must be rotated (ticket SEC-311).
- Migration review didn't catch the conditional.

Action items
- [ ] SEC-311 rotate postgres superuser password
- [ ] Add CI check: every index in models exists after `migrate` on a fresh DB
- [ ] Put read-only creds in the on-call vault folder
- [ ] Add p95 latency SLO alert at 1s (currently 2s)
- [ ] Pair review for migrations that drop or rename columns

Attendees: Sam, Ines, Raj, Mo, Kai
""",
)

# a few more to reach variety in vendors / formats
S(
    "ai_api_key",
    f"""
mistral key for the eval harness (user's personal account, low quota): {rs(32)} — set as MISTRAL_API_KEY in ~/.zshrc
""",
)

S(
    "prose_password",
    """
The user says: "the Zoom host key is 482193 and the meeting passcode for the Thursday club is Books4All".
""",
)

S(
    "totp_seed",
    f"""
Google Authenticator export for the shared Twitter/X brand account — setup key: {rs(16, B32)}
""",
)

S(
    "recovery_codes",
    "Bitwarden recovery code (lets you turn off 2FA if the phone is lost): "
    + "-".join(rs(4, UPPER + DIGITS) for _ in range(7)),
)

S(
    "session_cookie",
    f"""
Logged-in cookie for the internal wiki so the export script can run headless:
wiki_session={hx(64)}; Path=/; HttpOnly; Secure
""",
)

S(
    "jwt_bearer",
    f"""
Home Assistant long-lived access token for the tablet dashboard:
{jwt({"iss": hx(32), "iat": 1709251200, "exp": 2024611200})}
""",
)

S(
    "prose_password_es",
    """
Contraseña del router (el usuario la escribió con acentos y todo): Ñandú-Veloz-2023
""",
)

S(
    "env_file",
    f"""
From the runbook, section "Restore worker env":
LINEAR_API_KEY=lin_api_{rs(40)}
NOTION_TOKEN=secret_{rs(43)}
AIRTABLE_PAT=pat{rs(14)}.{hx(64)}
""",
)

S(
    "cloud_service_key",
    f"""
Vault root token from the dev cluster init (dev only, but still): hvs.{rs(24)}
Unseal key 1: {rs(44, B64)}
""",
)

S(
    "prose_password_de",
    """
Laut Nutzerin ist das Kennwort für das DATEV-Konto der Praxis: Praxis!Zahn2023. Zwei-Faktor ist noch nicht aktiv.
""",
)

S(
    "prose_password_fr",
    """
Le code PIN de la carte SIM de secours est 6042, et le PUK 81736450.
""",
)


# ---------------------------------------------------------------------------------------------------------------
# BENIGN notes
# ---------------------------------------------------------------------------------------------------------------

# credential_mention_no_value -----------------------------------------------------------------------------------
B(
    "credential_mention_no_value",
    """
Rotated the Stripe live secret key today after the contractor offboarding. Old key revoked in the dashboard; new one is only in the deploy secret store.
""",
)

B(
    "credential_mention_no_value",
    """
User reset her Gmail password this morning after the phishing email. Nothing else to do; 2FA was already on.
""",
)

B(
    "credential_mention_no_value",
    """
The GitHub token used by the nightly job expired on the 3rd, which is why the job has been failing. Asked Raj to mint a new fine-grained token with contents:write.
""",
)

B(
    "credential_mention_no_value",
    """
Session recap: the deploy failed because AWS_SECRET_ACCESS_KEY wasn't exported in the new shell. Re-sourced the profile and it worked. No keys were changed.
""",
)

B(
    "credential_mention_no_value",
    """
Der Nutzer hat heute das Passwort für das Online-Banking geändert; das neue Passwort hat er mir bewusst nicht genannt.
""",
)

# password_manager_pointer --------------------------------------------------------------------------------------
B(
    "password_manager_pointer",
    """
The router admin password is in 1Password under "Router — Fritzbox 7590", vault Family.
""",
)

B(
    "password_manager_pointer",
    """
Netflix / Disney+ / Spotify family logins all live in the shared Bitwarden collection "Streaming". Ask the user to share the item rather than reading it out.
""",
)

B(
    "password_manager_pointer",
    """
Where things are:
- door code → written on the card inside the kitchen drawer
- alarm PIN → user knows it; not stored anywhere digital
- Wi-Fi password → on the sticker under the router
""",
)

B(
    "password_manager_pointer",
    """
La contraseña del banco la guarda el usuario en KeePassXC (archivo familia.kdbx en el pendrive azul).
""",
)

# placeholder_value ---------------------------------------------------------------------------------------------
B(
    "placeholder_value",
    """
README snippet I drafted for the user:
```
export OPENAI_API_KEY=<YOUR_API_KEY>
python summarize.py --input notes/
```
""",
)

B(
    "placeholder_value",
    """
.env.example (committed, template only — real values come from the vault):
DATABASE_URL=postgres://user:password@localhost:5432/app
SECRET_KEY=changeme
STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx
SENTRY_DSN=
""",
)

B(
    "placeholder_value",
    """
docker-compose.example.yml (example only, says so in the header):
# EXAMPLE — replace every value before use
environment:
  POSTGRES_USER: example
  POSTGRES_PASSWORD: example-password-change-me
""",
)

B(
    "placeholder_value",
    """
Template for the new-hire email: "Your temporary password is {{temp_password}}; you'll be asked to change it on first login."
""",
)

# env_var_reference ---------------------------------------------------------------------------------------------
B(
    "env_var_reference",
    """
settings.py now reads the key from the environment:
    STRIPE_KEY = os.environ["STRIPE_SECRET_KEY"]
    DB_PASSWORD = os.getenv("DB_PASSWORD", "")
""",
)

B(
    "env_var_reference",
    """
GitHub Actions step (fixed):
- name: Publish
  run: npm publish
  env:
    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}
""",
)

B(
    "env_var_reference",
    """
docker-compose: `POSTGRES_PASSWORD: ${DB_PASSWORD:?set DB_PASSWORD}` — compose now refuses to start when it's unset, which is what we wanted.
""",
)

B(
    "env_var_reference",
    """
Ansible: `db_password: "{{ vault_db_password }}"` in group_vars; the actual value is in the vaulted file.
""",
)

# redacted_value ------------------------------------------------------------------------------------------------
B(
    "redacted_value",
    """
Log line that showed the problem (key redacted by the logger): `auth failed for key sk-proj-****...a9Qz, status 401`
""",
)

B(
    "redacted_value",
    """
Connection string from the error message: postgres://app:[REDACTED]@db.internal:5432/app
""",
)

B(
    "redacted_value",
    """
User shared a screenshot of the .env with values blacked out:
STRIPE_SECRET_KEY=••••••••••••
SENDGRID_API_KEY=••••••••••••
""",
)

B(
    "redacted_value",
    """
AWS CLI `configure list` output:
      Name                    Value             Type    Location
access_key     ****************7QXA shared-credentials-file
secret_key     ****************kP2m shared-credentials-file
    region                eu-west-1      config-file    ~/.aws/config
""",
)

# git_sha_commit ------------------------------------------------------------------------------------------------
B(
    "git_sha_commit",
    f"""
Bisect result: first bad commit is {hx(40)} ("refactor: move token refresh into AuthClient"). Reverted in {hx(7)}.
""",
)

B(
    "git_sha_commit",
    "`git log --oneline -5` on release/2.8:\n"
    + "\n".join(
        f"{hx(7)} {m}"
        for m in (
            "fix: don't log the session token on refresh failure",
            "chore(deps): bump cryptography to 42.0.5",
            "feat: rotate API keys from the admin page",
            "test: cover password reset expiry",
            "docs: explain SECRET_KEY setting",
        )
    ),
)

B(
    "git_sha_commit",
    f"""
Pinned the action by SHA as the security review asked: uses: actions/checkout@{hx(40)} # v4.1.1
""",
)

B(
    "git_sha_commit",
    """
Commit message I wrote for the user: "Remove hard-coded API key from config loader; read from env instead (key was already rotated)"
""",
)

# checksum_digest -----------------------------------------------------------------------------------------------
B(
    "checksum_digest",
    f"""
Verified the ISO before flashing:
sha256sum ubuntu-24.04-live-server-amd64.iso
{hx(64)}  ubuntu-24.04-live-server-amd64.iso
matches the SHA256SUMS file.
""",
)

B(
    "checksum_digest",
    f"""
Image pinned by digest in the Helm values: ghcr.io/acme/gateway@sha256:{hx(64)}
""",
)

B(
    "checksum_digest",
    f"""
package-lock entry that changed: "integrity": "sha512-{rs(86, B64)}=="
""",
)

# password_hash -------------------------------------------------------------------------------------------------
B(
    "password_hash",
    f"""
Checked the users table after the migration — hashes look right (bcrypt, cost 12):
id | email            | password_hash
1  | admin@acme.io    | $2b$12${rs(53, ALNUM + "./")}
""",
)

B(
    "password_hash",
    f"""
Django stores argon2 now: `argon2$argon2id$v=19$m=102400,t=2,p=8${rs(22, B64)}${rs(43, B64)}` — confirmed PASSWORD_HASHERS order.
""",
)

B(
    "password_hash",
    f"""
.htpasswd for the staging gate (hash only, generated with `htpasswd -B`): preview:$2y$05${rs(53, ALNUM + "./")}
""",
)

# uuid_request_ids ----------------------------------------------------------------------------------------------
B(
    "uuid_request_ids",
    f"""
Support ticket for the failed payout: request id req_{rs(14)}, idempotency key {uuid()}. Stripe support will look at it.
""",
)

B(
    "uuid_request_ids",
    f"""
Trace for the slow checkout: trace_id={hx(32)} span_id={hx(16)} — 1.9s spent in the inventory call.
""",
)

B(
    "uuid_request_ids",
    f"""
Azure error: "AADSTS700016: Application with identifier '{uuid()}' was not found in the directory". Correlation ID: {uuid()}. Timestamp 2024-05-02 09:14:11Z.
""",
)

B(
    "uuid_request_ids",
    f"""
The user's device id in the Home Assistant registry is {hx(32)}; the Zigbee IEEE address of the hallway sensor is 00:15:8d:00:0{hx(1)}:{hx(2)}:{hx(2)}:{hx(2)}.
""",
)

# public_key ----------------------------------------------------------------------------------------------------
B(
    "public_key",
    f"""
Added the user's laptop key to authorized_keys on the VPS:
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(43, B64)} lena@thinkpad
""",
)

B(
    "public_key",
    f"""
Deploy key (public half) registered on the repo:
ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(511, B64)}= deploy@ci
""",
)

B(
    "public_key",
    f"""
Maintainer's signing key for verifying the release tarballs:
-----BEGIN PGP PUBLIC KEY BLOCK-----

{pem_lines(1300, prefix="mQINBG")}
={rs(4, B64)}
-----END PGP PUBLIC KEY BLOCK-----
""",
)

B(
    "public_key",
    f"""
JWKS the gateway fetches (public keys only):
{{"keys":[{{"kty":"RSA","kid":"{hx(16)}","use":"sig","alg":"RS256","e":"AQAB","n":"{rs(342, B64URL)}"}}]}}
""",
)

B(
    "public_key",
    f"""
Server certificate we pinned in the mobile app (public cert, not the key):
{pem("CERTIFICATE", 1200, prefix="MIIDdzCCAl+gAwIBAgIE")}
""",
)

# base64_blob_data ----------------------------------------------------------------------------------------------
B(
    "base64_blob_data",
    f"""
Favicon inlined in the email template:
<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA{rs(300, B64)}AAAAAElFTkSuQmCC" width="16">
""",
)

B(
    "base64_blob_data",
    f"""
Decoded the weird header for the user: `{b64enc('{"version":2,"theme":"dark"}')}` is just {{"version":2,"theme":"dark"}} — a UI preferences cookie, nothing sensitive.
""",
)

B(
    "base64_blob_data",
    f"""
Font subset embedded in the PDF export CSS: src: url(data:font/woff2;base64,d09GMgABAAAAA{rs(240, B64)}) format("woff2");
""",
)

# numeric_identifiers -------------------------------------------------------------------------------------------
B(
    "numeric_identifiers",
    f"""
Amazon order 114-{digits(7)}-{digits(7)} (air fryer) — return window closes on the 28th. DHL tracking JD0146{digits(14)}.
""",
)

B(
    "numeric_identifiers",
    f"""
Invoice INV-2024-{digits(5)} from the accountant, amount €1,240.00, due 2024-07-15. Customer number {digits(8)}.
""",
)

B(
    "numeric_identifiers",
    f"""
Flight confirmation: booking reference {rs(6, UPPER)}, ticket number 220-{digits(10)}, seat 14C.
""",
)

B(
    "numeric_identifiers",
    f"""
GitHub issue #{digits(4)}, Jira OPS-{digits(4)}, Zendesk ticket {digits(7)}; the customer's Stripe customer id is cus_{rs(14)}.
""",
)

# contact_info --------------------------------------------------------------------------------------------------
B(
    "contact_info",
    """
Plumber: Marek Nowak, +44 7700 900461 (texts preferred). Electrician: Sparks & Co, 020 7946 0018.
""",
)

B(
    "contact_info",
    """
Pediatrician's office: Dr. Aydin, Lindenstraße 14, 10969 Berlin, Tel. 030 2345 6789, Sprechzeiten Mo–Fr 8–12.
""",
)

B(
    "contact_info",
    """
Alarm monitoring company emergency line: 0800 123 4567, customer number 55-1938. They ask for the account holder's name, not a code.
""",
)

# wifi_name_only ------------------------------------------------------------------------------------------------
B(
    "wifi_name_only",
    """
Home networks: "Hollis-Home" (2.4/5 GHz, main), "Hollis-IoT" (2.4 only, for the plugs and the doorbell). Printer is on the main one.
""",
)

B(
    "wifi_name_only",
    """
At the coworking space join "Factory-Members"; the password rotates weekly and is on the board by the coffee machine.
""",
)

B(
    "wifi_name_only",
    """
Le réseau Wi-Fi de la maison de vacances s'appelle « Livebox-7A2C ». Le mot de passe est sur l'étiquette de la box.
""",
)

# version_strings -----------------------------------------------------------------------------------------------
B(
    "version_strings",
    """
Versions in prod as of today: gateway 2.8.1, web 5.14.0-rc.2, workers 1.33.7, Postgres 15.6, Redis 7.2.4, Kubernetes 1.29.3-eks-a1b2c3d.
""",
)

B(
    "version_strings",
    """
User's laptop: macOS 14.5 (23F79), Xcode 15.4 (15F31d), Python 3.12.3, node v20.14.0, Docker Desktop 4.30.0 (149282).
""",
)

B(
    "version_strings",
    """
Pinned the deps after the breakage: cryptography==42.0.5, pyjwt==2.8.0, passlib==1.7.4, keyring==25.2.1.
""",
)

# feature_flag_names --------------------------------------------------------------------------------------------
B(
    "feature_flag_names",
    """
Flags turned on for the beta cohort: ENABLE_SECRET_SANTA, ENABLE_PASSWORDLESS_LOGIN, NEW_TOKEN_REFRESH_FLOW. Off for everyone else.
""",
)

B(
    "feature_flag_names",
    """
LaunchDarkly: `show-api-keys-page` is at 10% rollout; `require-2fa-for-admins` is 100%.
""",
)

B(
    "feature_flag_names",
    """
Config keys reviewed: auth.password_min_length=12, auth.token_ttl_minutes=30, auth.allow_api_keys=true.
""",
)

# identifier_names_no_value -------------------------------------------------------------------------------------
B(
    "identifier_names_no_value",
    """
Renamed in the refactor: get_api_key() → load_api_key(), SECRET_TOKEN_HEADER → AUTH_HEADER_NAME, class PasswordResetToken kept as is.
""",
)

B(
    "identifier_names_no_value",
    """
The env vars the service expects (names only): DATABASE_URL, REDIS_URL, JWT_SIGNING_KEY, STRIPE_WEBHOOK_SECRET, SENTRY_DSN.
""",
)

B(
    "identifier_names_no_value",
    """
Schema for the credentials table: id uuid, owner_id uuid, provider text, access_token_encrypted bytea, refresh_token_encrypted bytea, expires_at timestamptz.
""",
)

B(
    "identifier_names_no_value",
    """
TypeScript type I added:
type ApiKeyInfo = { id: string; prefix: string; lastUsedAt: Date | null; scopes: string[] };
Only the prefix (first 8 chars) is ever shown in the UI.
""",
)

# secret_manager_path -------------------------------------------------------------------------------------------
B(
    "secret_manager_path",
    """
Prod DB password lives at arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/orders/db-password-AbCdEf; the task role can read it.
""",
)

B(
    "secret_manager_path",
    """
Vault paths: kv/data/payments/stripe (key `secret_key`), kv/data/payments/adyen (keys `api_key`, `hmac_key`). Policy `payments-read` grants access.
""",
)

B(
    "secret_manager_path",
    """
1Password CLI refs in the .env.tpl:
STRIPE_SECRET_KEY=op://Engineering/Stripe Prod/secret key
DB_PASSWORD=op://Engineering/orders-db/password
Run with `op run --env-file=.env.tpl -- make dev`.
""",
)

B(
    "secret_manager_path",
    """
Kubernetes manifest:
env:
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: orders-db
        key: password
""",
)

# security_policy_discussion ------------------------------------------------------------------------------------
B(
    "security_policy_discussion",
    """
Password policy agreed with the client: min 12 chars, no forced rotation, check against breached-password list, lockout after 10 failures for 15 min.
""",
)

B(
    "security_policy_discussion",
    """
Explained to the user how API keys work in the new admin page: keys are shown once at creation, stored as SHA-256 hashes, and can be revoked individually.
""",
)

B(
    "security_policy_discussion",
    """
Threat model notes: an attacker with a stolen session cookie could act as the user until expiry (24h); we're shortening it to 2h and binding it to the device.
""",
)

# household_no_code ---------------------------------------------------------------------------------------------
B(
    "household_no_code",
    """
The door code for the building changed on June 1st — the new one is on the notice in the lobby, user will tell guests himself.
""",
)

B(
    "household_no_code",
    """
Alarm: panel is by the back door; if it goes off by accident, call the monitoring company and give the account holder's name. User will enter the PIN himself.
""",
)

B(
    "household_no_code",
    """
Spare house key is with the neighbour at no. 14 (Mrs. Okafor). The garage opener remote is in the blue car's glovebox.
""",
)

# cloud_resource_ids --------------------------------------------------------------------------------------------
B(
    "cloud_resource_ids",
    """
AWS account 210987654321 (prod), role arn:aws:iam::210987654321:role/github-deploy, bucket acme-prod-assets, CloudFront distribution E2QWRUHAPOMQZL.
""",
)

B(
    "cloud_resource_ids",
    f"""
GCP project acme-analytics-prod (number {digits(12)}), service account exporter@acme-analytics-prod.iam.gserviceaccount.com — key-less, uses workload identity.
""",
)

B(
    "cloud_resource_ids",
    f"""
Azure subscription {uuid()}, resource group rg-crm-prod, storage account invoicesstprod, app service crm-api-prod.
""",
)

# public_test_values --------------------------------------------------------------------------------------------
B(
    "public_test_values",
    """
For checkout testing use Stripe's documented test card 4242 4242 4242 4242, any future expiry, any CVC. 3DS test card: 4000 0027 6000 3184.
""",
)

B(
    "public_test_values",
    """
Twilio test credentials accept the documented magic numbers: +15005550006 as a valid "from", +15005550001 to simulate an invalid number.
""",
)

# long_note_benign ----------------------------------------------------------------------------------------------
B(
    "long_note_benign",
    f"""
# Session summary — 2024-05-29 — moving secrets out of the repo

## Goal
The user wanted every hard-coded credential removed from the `shop-api` repo before the code review with the new agency.

## What we found
- config/settings.py had a Stripe key, an SMTP password and the Django SECRET_KEY inline.
- docker-compose.yml set POSTGRES_PASSWORD inline.
- A test fixture had a real-looking (but revoked) GitHub token.
- .github/workflows/deploy.yml echoed the deploy token to the log on failure.

## What we changed
1. settings.py now reads STRIPE_SECRET_KEY, EMAIL_HOST_PASSWORD and SECRET_KEY from the environment.
2. docker-compose.yml uses `${{POSTGRES_PASSWORD}}` with an `.env` that is git-ignored.
3. Replaced the fixture token with the literal string `ghp_EXAMPLE_NOT_A_TOKEN`.
4. Removed the `echo` from the workflow; secrets come from `${{{{ secrets.DEPLOY_TOKEN }}}}`.
5. Added gitleaks to pre-commit and to CI.
6. Purged history with git filter-repo (commit {hx(7)} is the new root of main).

## Rotations (done by the user, values not shared with me)
- Stripe live key: rotated.
- SMTP password: rotated.
- Django SECRET_KEY: regenerated (sessions invalidated, acceptable).
- Postgres password: rotated, updated in the host's .env.

## Verification
- `gitleaks detect` on the rewritten history: no findings.
- CI green on {hx(7)}.
- Staging deploy OK, login and checkout tested manually.

## Follow-ups
- Move the host .env into the provider's secret manager next sprint.
- Ask the agency to force-push protection on main.
- Document the rotation procedure in the runbook.

## Notes for next time
- The user prefers that I never see the actual secret values; ask them to paste into the terminal, not the chat.
- gitleaks config lives in .gitleaks.toml with an allowlist for `ghp_EXAMPLE_NOT_A_TOKEN`.
""",
)

B(
    "long_note_benign",
    """
Household binder — summary of what I know (updated 2024-06-03)

People
- Ruth (user), Mark (partner), Amelie (9), Leo (6)
- Grandma Edith lives nearby, visits on Sundays

House
- Boiler: Worcester Greenstar 30i, serviced every October, engineer from HeatRight
- Fuse box under the stairs; the kitchen circuit trips if the kettle and the oven run together
- Stopcock under the kitchen sink, turns clockwise to close
- Wi-Fi: network "Hollis-Home"; password on the router sticker, user doesn't want it in notes
- Door code and alarm PIN: only Ruth and Mark know them, deliberately not recorded here

Routines
- Bins: general waste Tuesday night, recycling alternate Thursdays
- School run: Mark Mon/Wed/Fri, Ruth Tue/Thu
- Swim lessons Saturday 10:15
- Piano for Amelie Wednesday 16:30

Accounts (where to find, not the logins)
- Utilities, insurance, council tax: all in the shared Bitwarden vault, folder "House"
- Streaming: Bitwarden folder "Streaming"
- Banking: Ruth handles it herself, nothing stored

Health
- GP: Dr. Patel, Brent Cross Medical Centre
- Dentist: check-ups in March and September
- Leo's allergy: peanuts (EpiPen in the kitchen cupboard, top shelf)

Upcoming
- Amelie's passport renewal (expires March)
- Car MOT on the 19th
- Boiler service in October
""",
)

B(
    "long_note_benign",
    f"""
Debugging log — "invalid_grant" on token refresh (mobile app)

Symptoms
- Users get logged out after ~1 hour on Android only.
- Server logs show `invalid_grant: refresh token not found` for request ids like req_{rs(12)}.

Hypotheses
1. Refresh token rotation + two concurrent refreshes → second one uses a revoked token.
2. Clock skew on devices.
3. Token storage cleared by Android's auto-backup restore.

Investigation
- Added logging of token *fingerprints* (first 6 chars of SHA-256 of the token), never the tokens.
- Saw the same fingerprint used twice within 200 ms in 80% of failures → hypothesis 1.
- Android app fires refresh from both the interceptor and the WorkManager job.

Fix
- Single-flight refresh in the interceptor (mutex around the refresh call).
- Server: 10-second grace period where the previous refresh token is still accepted once.
- Release 5.14.1 (build {digits(4)}), commit {hx(40)}.

Results
- invalid_grant rate dropped from 3.1% of refreshes to 0.02% after 48 hours.
- No change on iOS (it was already single-flight).

Notes
- The OAuth client for the app is public (PKCE); there is no client secret in the app, by design.
- Token TTLs: access 60 min, refresh 30 days sliding.
- Dashboards: Grafana "Auth / Refresh" panel, trace search by `auth.refresh` span name.

Leftovers
- Remove the fingerprint logging after two weeks.
- Write the incident up for the mobile team wiki.
- Ask backend whether the grace period should be configurable.
- Check whether web has the same double-refresh pattern (it uses a different SDK).
- Update the API docs to mention the grace period.
- Close ticket MOB-{digits(4)}.
""",
)

# a few more benign hard negatives --------------------------------------------------------------------------------
B(
    "placeholder_value",
    """
Snippet from the vendor docs, kept for reference: `mysql -u <user> -p<password> -h <host> <database>` (no space after -p).
""",
)

B(
    "redacted_value",
    """
Chat export from the user — the token is cut off: "here's my Slack token xoxb-…" (he deleted the message before I could read the rest; nothing stored).
""",
)

B(
    "env_var_reference",
    """
PowerShell profile line: `$env:GITHUB_TOKEN = (gh auth token)` — pulls it from the gh keyring at shell start instead of storing it.
""",
)

B(
    "contact_info",
    """
Accountant: Helena Sousa, helena@sousa-contabilidade.pt, +351 21 123 4567. Prefers documents via the client portal, not email.
""",
)

B(
    "feature_flag_names",
    """
Env toggles in the compose file: DISABLE_AUTH_FOR_HEALTHCHECK=true, TOKEN_CACHE_ENABLED=false, SECRET_ROTATION_DRY_RUN=true.
""",
)

B(
    "version_strings",
    f"""
Build metadata on the about page: v3.2.0+build.{digits(4)}.{hx(7)} (2024-06-10T08:31:00Z).
""",
)

B(
    "checksum_digest",
    f"""
Git LFS pointer for the model file:
version https://git-lfs.github.com/spec/v1
oid sha256:{hx(64)}
size 4368439296
""",
)

B(
    "cloud_resource_ids",
    f"""
Cloudflare: zone id {hx(32)}, account id {hx(32)} (both are identifiers shown in the dashboard sidebar; the API token is separate and not here).
""",
)

B(
    "password_manager_pointer",
    """
Das WLAN-Passwort steht auf der Rückseite der FRITZ!Box; der Nutzer will es nicht in den Notizen haben.
""",
)

B(
    "security_policy_discussion",
    """
Le client veut des mots de passe d'au moins 14 caractères et la double authentification obligatoire pour les comptes admin.
""",
)

B(
    "household_no_code",
    """
Airbnb: guests get the lockbox code automatically in the check-in message 24h before arrival; the host app generates a new one per booking.
""",
)

B(
    "wifi_name_only",
    """
Printer troubleshooting: it kept joining "Hollis-IoT" instead of "Hollis-Home"; forgot the IoT network on the printer and it's fine now.
""",
)

B(
    "password_hash",
    f"""
/etc/shadow line for the kiosk user (copied to check the hash algorithm, it's yescrypt): kiosk:$y$j9T${rs(22, ALNUM + "./")}${rs(43, ALNUM + "./")}:19872:0:99999:7:::
""",
)

B(
    "base64_blob_data",
    f"""
Kubernetes ConfigMap binaryData for the logo: logo.png: iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAA{rs(200, B64)}
""",
)

B(
    "public_test_values",
    """
Example from the JWT spec we used in a unit test — the RFC 7519 sample token, signature intentionally invalid against our keys, test asserts rejection.
""",
)


# ---------------------------------------------------------------------------------------------------------------


def split_of(note_id: str) -> str:
    return "dev" if int(hashlib.sha256(note_id.encode()).hexdigest(), 16) % 2 == 0 else "heldout"


def build() -> list[dict]:
    order = list(range(len(NOTES)))
    random.Random(99_417).shuffle(order)
    rows = []
    for n, i in enumerate(order, start=1):
        label, kind, text = NOTES[i]
        note_id = f"s2-{n:03d}-{kind}"
        rows.append({"id": note_id, "label": label, "kind": kind, "text": text, "split": split_of(note_id)})
    return rows


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    rows = build()
    lines = [json.dumps(ABOUT, ensure_ascii=False)] + [json.dumps(r, ensure_ascii=False) for r in rows]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    by = Counter((r["label"], r["split"]) for r in rows)
    kinds = Counter((r["label"], r["kind"]) for r in rows)
    print(f"wrote {len(rows)} notes to {out}")
    for key in sorted(by):
        print(f"  {key[0]:7s} {key[1]:8s} {by[key]}")
    print(f"  distinct kinds: {len(kinds)}")


if __name__ == "__main__":
    main()
