#!/usr/bin/env python3
"""Write secret_notes_third.jsonl, the third labelled set of agent memory notes for the secret detector.

Every note is held in this file. Token-shaped parts (vendor-prefixed keys, opaque keys, private-key bodies, JWTs,
digests, ids) are drawn from one seeded random.Random in a fixed order, so running this script again reproduces the
output byte for byte. No value is a real credential. The few public example values (the key pair from AWS's
documentation, Stripe's test card numbers, jwt.io's sample token, Twilio's magic test numbers) are published by
their vendors as examples and are labelled benign.

Labels are given by what a careful human reviewer would call a usable credential; the rules for arguable cases are
in secret_notes_third.md.

    python benchmarks/data/make_secret_notes_third.py            # writes secret_notes_third.jsonl
    python benchmarks/data/make_secret_notes_third.py --stats    # also prints the count tables
"""

import base64
import hashlib
import json
import random
import re
import string
import struct
import sys
import textwrap
import uuid
import zlib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "secret_notes_third.jsonl"

TOKEN_SEED = 20261204  # every generated value
SHUFFLE_SEED = 3303  # the order in which ids are numbered

R = random.Random(TOKEN_SEED)

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
URLSAFE = ALNUM + "-_"
B64CHARS = ALNUM + "+/"
B32 = string.ascii_uppercase + "234567"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
HEX = "0123456789abcdef"
CRYPT64 = "./" + string.digits + string.ascii_uppercase + string.ascii_lowercase
SYM = "!#%*+-=?^_"

WORDS = [
    "maple",
    "falcon",
    "harbor",
    "pepper",
    "violet",
    "copper",
    "lantern",
    "meadow",
    "orbit",
    "saffron",
    "thistle",
    "walnut",
    "glacier",
    "juniper",
    "marble",
    "nectar",
    "quartz",
    "raven",
    "sierra",
    "tundra",
    "velvet",
    "willow",
    "zephyr",
    "cobalt",
    "ember",
    "fennel",
    "granite",
    "hazel",
    "indigo",
    "kestrel",
    "lagoon",
    "mango",
    "nutmeg",
    "otter",
    "pebble",
    "quill",
    "rhubarb",
    "sparrow",
    "tulip",
    "umber",
]


# ------------------------------------------------------------------------------------------------ random values
def rs(n, alphabet=ALNUM):
    return "".join(R.choice(alphabet) for _ in range(n))


def hx(n):
    return rs(n, HEX)


def digits(n):
    return str(R.randint(1, 9)) + rs(n - 1, string.digits)


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(n):
    return base64.b64encode(rbytes(n)).decode()


def b64url(n):
    return base64.urlsafe_b64encode(rbytes(n)).decode().rstrip("=")


def b64s(text):
    return base64.b64encode(text.encode()).decode()


def b64u_json(obj):
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


def jwt(payload, alg="HS256", kid=None):
    header = {"alg": alg, "typ": "JWT"}
    if kid:
        header["kid"] = kid
    return b64u_json(header) + "." + b64u_json(payload) + "." + b64url(256 if alg.startswith("RS") else 32)


def uid():
    return str(uuid.UUID(int=R.getrandbits(128), version=4))


def ulid():
    return rs(1, "01") + rs(25, CROCKFORD)


def wrap(s, width=64):
    return "\n".join(s[i : i + width] for i in range(0, len(s), width))


def pem(label, prefix, n, width=64):
    body = base64.b64encode(prefix + rbytes(n)).decode()
    return f"-----BEGIN {label}-----\n{wrap(body, width)}\n-----END {label}-----"


def pem_lines(prefix, n, width=64):
    return wrap(base64.b64encode(prefix + rbytes(n)).decode(), width).split("\n")


RSA_DER = b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00"
PKCS8_DER = (
    b"\x30\x82\x04\xbd\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00"
    b"\x04\x82\x04\xa7\x30\x82\x04\xa3\x02\x01\x00\x02\x82\x01\x01\x00"
)
CERT_DER = b"\x30\x82\x03\x1e\x30\x82\x02\x06\xa0\x03\x02\x01\x02\x02\x14"
OPENSSH_HEAD = (
    b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
    b"\x00\x00\x00\x33\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
)
ED25519_PUB = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
ECDSA_PUB = b"\x00\x00\x00\x13ecdsa-sha2-nistp256\x00\x00\x00\x08nistp256\x00\x00\x00\x41\x04"


def openssh_private():
    return pem("OPENSSH PRIVATE KEY", OPENSSH_HEAD, 320, width=70)


def ec_private():
    der = (
        b"\x30\x77\x02\x01\x01\x04\x20"
        + rbytes(32)
        + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
        + rbytes(64)
    )
    return f"-----BEGIN EC PRIVATE KEY-----\n{wrap(base64.b64encode(der).decode())}\n-----END EC PRIVATE KEY-----"


def pgp_block(kind, prefix, n):
    body = wrap(base64.b64encode(prefix + rbytes(n)).decode())
    return f"-----BEGIN PGP {kind} KEY BLOCK-----\n\n{body}\n={rs(4, B64CHARS)}\n-----END PGP {kind} KEY BLOCK-----"


def ssh_ed25519_pub():
    return "ssh-ed25519 " + base64.b64encode(ED25519_PUB + rbytes(32)).decode()


def ssh_fp():
    return "SHA256:" + base64.b64encode(rbytes(32)).decode().rstrip("=")


def pw(style="human"):
    if style == "human":
        w1, w2 = R.sample(WORDS, 2)
        return w1.capitalize() + R.choice(["", "-", "."]) + w2 + str(R.randint(10, 999)) + R.choice("!?*")
    if style == "strong":
        return rs(1, ALNUM) + rs(R.randint(15, 21), ALNUM + SYM)
    if style == "url":
        return rs(R.randint(18, 24), ALNUM + "-_.")
    if style == "words":
        return "-".join(R.sample(WORDS, 4))
    if style == "simple":
        return R.choice(WORDS).capitalize() + str(R.randint(1000, 9999))
    raise ValueError(style)


def pin(n=4):
    return rs(n, string.digits)


def luhn_card(prefix="4", length=16):
    body = prefix + rs(length - len(prefix) - 1, string.digits)
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def iban(country, bban):
    moved = bban + country + "00"
    num = int("".join(str(int(c, 36)) for c in moved))
    return f"{country}{98 - num % 97:02d}{bban}"


def group(s, n=4, sep=" "):
    return sep.join(s[i : i + n] for i in range(0, len(s), n))


def tiny_png(w=4, h=4):
    raw = b"".join(b"\x00" + rbytes(3 * w) for _ in range(h))
    stored = (
        b"\x78\x01\x01" + struct.pack("<HH", len(raw), len(raw) ^ 0xFFFF) + raw + struct.pack(">I", zlib.adler32(raw))
    )

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", stored)
        + chunk(b"IEND", b"")
    )
    return base64.b64encode(png).decode()


HOMOGLYPHS = {
    "a": "\u0430",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "c": "\u0441",
    "x": "\u0445",
    "y": "\u0443",
    "A": "\u0410",
    "B": "\u0412",
    "E": "\u0415",
    "K": "\u041a",
    "M": "\u041c",
    "H": "\u041d",
    "O": "\u041e",
    "P": "\u0420",
    "C": "\u0421",
    "T": "\u0422",
    "X": "\u0425",
}


def homoglyph(s):
    return "".join(HOMOGLYPHS.get(ch, ch) for ch in s)


def zero_width(s, every=3, mark="\u200b"):
    return "".join(ch + (mark if i % every == every - 1 and i < len(s) - 1 else "") for i, ch in enumerate(s))


def fullwidth(s):
    return "".join(chr(ord(ch) - ord("0") + 0xFF10) if ch.isdigit() else ch for ch in s)


# ------------------------------------------------------------------------------------ vendor-shaped generators
def aws_akid(prefix="AKIA"):
    return prefix + rs(16, UPPER_ALNUM.replace("0", "").replace("1", "").replace("8", "").replace("9", ""))


def aws_secret():
    return rs(40, B64CHARS)


def gh_classic():
    return "ghp_" + rs(36)


def gh_fine():
    return "github_pat_" + rs(22, UPPER_ALNUM) + "_" + rs(59)


def glpat():
    return "glpat-" + rs(20, URLSAFE)


def stripe_sk(mode="live"):
    return f"sk_{mode}_51" + rs(97)


def slack_bot():
    return f"xoxb-{digits(11)}-{digits(13)}-{rs(24)}"


def slack_hook():
    return f"https://hooks.slack.com/services/T{rs(8, UPPER_ALNUM)}/B{rs(10, UPPER_ALNUM)}/{rs(24)}"


def discord_bot():
    return b64s(digits(19)).rstrip("=") + "." + rs(6, URLSAFE) + "." + rs(38, URLSAFE)


def telegram_bot():
    return f"{digits(10)}:AA{rs(33, URLSAFE)}"


def openai_key():
    return "sk-proj-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE)


def anthropic_key():
    return "sk-ant-api03-" + rs(93, URLSAFE) + "AA"


def azure_client_secret():
    return rs(3) + "8Q~" + rs(34, ALNUM + "_.~-")


def supabase_jwt(role, ref):
    return jwt({"iss": "supabase", "ref": ref, "role": role, "iat": 1716200000, "exp": 2031776000})


# ---------------------------------------------------------------------------------------------------- notes
NOTES = []
MARK = re.compile(r"<<([a-z][a-z0-9_]*)>>")


def fill(text, **kw):
    text = textwrap.dedent(text).strip("\n")
    used = set()

    def sub(m):
        used.add(m.group(1))
        return kw[m.group(1)]

    out = MARK.sub(sub, text)
    unused = set(kw) - used
    if unused:
        raise ValueError(f"unused values {sorted(unused)} in {text[:60]!r}")
    return out


def S(kind, text, **kw):
    NOTES.append(("secret", kind, fill(text, **kw)))


def B(kind, text, **kw):
    NOTES.append(("benign", kind, fill(text, **kw)))


# =============================================================================================== SECRET NOTES
# ------------------------------------------------------------------------------------------------ .env files
S(
    "env_file",
    """
    Session notes: billing-api local setup
    The user pasted their working .env so the next session doesn't have to ask again:

    DATABASE_URL=postgres://billing:<<pw>>@localhost:5433/billing_dev
    STRIPE_SECRET_KEY=<<sk>>
    LOG_LEVEL=debug
    PORT=8081
""",
    pw=pw("url"),
    sk=stripe_sk(),
)

S(
    "env_file",
    """
    .env.production for the marketing site, as shown on the user's screen share (14 Nov):
    NEXT_PUBLIC_SITE_URL=https://www.brightloom.example
    NEXT_PUBLIC_GA_ID=G-<<ga>>
    RESEND_API_KEY=<<resend>>
    REVALIDATE_SECRET=<<rev>>
""",
    ga=rs(10, UPPER_ALNUM),
    resend="re_" + rs(8) + "_" + rs(24),
    rev=hx(32),
)

S(
    "env_file",
    "Weather widget on the user's desktop works again after adding OPENWEATHER_API_KEY=<<k>> to ~/.config/conky/.env",
    k=hx(32),
)

# ------------------------------------------------------------------------------------------------ YAML / JSON
S(
    "config_yaml",
    """
    application-prod.yml as it is on the box right now (user asked me to keep a copy before the refactor):

    spring:
      datasource:
        url: jdbc:postgresql://pg-prod-1.internal:5432/orders
        username: orders_svc
        password: "<<pw>>"
      jpa:
        hibernate:
          ddl-auto: validate
""",
    pw=pw("strong"),
)

S(
    "config_yaml",
    """
    Home Assistant secrets.yaml (copied while debugging the MQTT bridge):
    mqtt_user: homeassistant
    mqtt_password: <<pw>>
    latitude_home: 52.37
    longitude_home: 4.89
""",
    pw=pw("human"),
)

S(
    "config_json",
    """
    MCP config the user is running (claude_desktop_config.json), saved so I can rebuild it on the new laptop:
    {
      "mcpServers": {
        "github": {
          "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-github"],
          "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "<<gh>>" }
        },
        "filesystem": {
          "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ines/Projects"]
        }
      }
    }
""",
    gh=gh_classic(),
)

S(
    "config_json",
    """
    appsettings.Production.json for the clinic booking app (keep until they move it to Key Vault):
    {
      "Logging": { "LogLevel": { "Default": "Warning" } },
      "Jwt": {
        "Issuer": "https://booking.lakeside-clinic.example",
        "Audience": "booking-web",
        "SigningKey": "<<key>>"
      },
      "AllowedHosts": "*"
    }
""",
    key=b64(48),
)

# ------------------------------------------------------------------------------------------------ TOML / INI / XML
S(
    "config_toml_ini",
    """
    ~/.my.cnf on the reporting VM so mysqldump runs from cron without prompting:
    [client]
    user=report_ro
    password=<<pw>>
    host=10.20.0.15
""",
    pw=pw("human"),
)

S(
    "config_toml_ini",
    '''
    grafana.ini smtp section (alerts weren't going out; the port was wrong):
    [smtp]
    enabled = true
    host = smtp.fastmail.com:465
    user = alerts@ridgeview.example
    password = """<<pw>>"""
    from_address = alerts@ridgeview.example
''',
    pw=pw("strong"),
)

S(
    "config_toml_ini",
    """
    The dashboard reads .streamlit/secrets.toml:

    openai_api_key = "<<oa>>"

    [postgres]
    host = "db.<<ref>>.supabase.co"
    port = 5432
    user = "postgres"
    password = "<<pw>>"
""",
    oa=openai_key(),
    ref=rs(20, string.ascii_lowercase),
    pw=pw("strong"),
)

S(
    "config_xml",
    """
    tomcat-users.xml on the old build server, the manager app login:
    <tomcat-users>
      <role rolename="manager-gui"/>
      <role rolename="manager-script"/>
      <user username="deployer" password="<<pw>>" roles="manager-gui,manager-script"/>
    </tomcat-users>
""",
    pw=pw("human"),
)

S(
    "config_xml",
    """
    Legacy WinForms app (Inventory.exe.config) still has the SMTP login in appSettings:
    <appSettings>
      <add key="SmtpHost" value="mail.northgate-supply.example" />
      <add key="SmtpUser" value="inventory-bot" />
      <add key="SmtpPassword" value="<<pw>>" />
      <add key="ReorderThreshold" value="12" />
    </appSettings>
""",
    pw=pw("simple"),
)

# ------------------------------------------------------------------------------------------------ infra config
S(
    "terraform_hcl",
    """
    providers.tf in the user's sandbox repo (they know; "it's only the sandbox account"):
    provider "aws" {
      region     = "eu-west-1"
      access_key = "<<akid>>"
      secret_key = "<<sk>>"
    }
""",
    akid=aws_akid(),
    sk=aws_secret(),
)

S(
    "terraform_hcl",
    """
    terraform.tfvars for the staging RDS instance:
    db_name        = "ledger"
    db_username    = "ledger_admin"
    db_password    = "<<pw>>"
    instance_class = "db.t4g.medium"
    multi_az       = false
""",
    pw=pw("strong"),
)

S(
    "dockerfile_compose",
    """
    Dockerfile for the private-package build (user asked why the CI cache keeps breaking):
    FROM node:20-bookworm-slim
    WORKDIR /app
    ENV NPM_TOKEN=<<npm>>
    RUN echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc
    COPY package*.json ./
    RUN npm ci
    COPY . .
""",
    npm="npm_" + rs(36),
)

S(
    "dockerfile_compose",
    """
    docker-compose.yml for the photo server on the NAS:
    services:
      db:
        image: postgres:16
        environment:
          POSTGRES_USER: immich
          POSTGRES_PASSWORD: <<pw>>
          POSTGRES_DB: immich
      minio:
        image: minio/minio
        environment:
          - MINIO_ROOT_USER=admin
          - MINIO_ROOT_PASSWORD=<<pw2>>
""",
    pw=pw("url"),
    pw2=pw("url"),
)

S(
    "k8s_secret_manifest",
    """
    kubectl get secret pg-credentials -n payments -o yaml (trimmed):
    apiVersion: v1
    kind: Secret
    metadata:
      name: pg-credentials
      namespace: payments
    type: Opaque
    data:
      username: <<u>>
      password: <<p>>
""",
    u=b64s("payments_app"),
    p=b64s(pw("strong")),
)

_ghcr = gh_classic()
S(
    "k8s_secret_manifest",
    """
    Pull secret that made the ghcr.io images work on the k3s cluster:
    apiVersion: v1
    kind: Secret
    metadata:
      name: ghcr-pull
      namespace: default
    type: kubernetes.io/dockerconfigjson
    data:
      .dockerconfigjson: <<cfg>>
""",
    cfg=b64s(json.dumps({"auths": {"ghcr.io": {"auth": b64s("halden-ci:" + _ghcr)}}}, separators=(",", ":"))),
)

S(
    "systemd_cron",
    """
    /etc/systemd/system/uptime-pusher.service
    [Unit]
    Description=Push heartbeat to the status page
    After=network-online.target

    [Service]
    Environment="STATUS_API_TOKEN=<<t>>"
    ExecStart=/usr/local/bin/pusher --every 60s
    Restart=always
""",
    t=rs(40),
)

S(
    "systemd_cron",
    r"""
    Nightly backup line from the user's crontab (crontab -l):
    15 2 * * * curl -fsS -u backup:<<pw>> -T /var/backups/site-$(date +\%F).tar.gz https://dav.storagebox.example/backups/
""",
    pw=pw("url"),
)

S(
    "webserver_config",
    """
    nginx snippet for proxying to the partner feed, which wants basic auth:
    location /feeds/ {
        proxy_pass https://feeds.partner-logistics.example/;
        proxy_set_header Authorization "Basic <<b>>";
        proxy_set_header Host feeds.partner-logistics.example;
    }
""",
    b=b64s("hubspoke:" + pw("url")),
)

S(
    "webserver_config",
    """
    Apache vhost for the intranet wiki, the part that talks to the search engine:
    <Location /search>
        RequestHeader set Authorization "Bearer <<k>>"
        ProxyPass http://10.0.4.20:7700/
        ProxyPassReverse http://10.0.4.20:7700/
    </Location>
""",
    k=rs(43, URLSAFE),
)

S(
    "git_credential",
    "~/.git-credentials on the user's laptop has one line: https://mkowal:<<gh>>@github.com (that's why pushes never prompt).",
    gh=gh_classic(),
)

S(
    "git_credential",
    """
    Ran in the session so the runner can push tags:
    git remote set-url origin https://oauth2:<<gl>>@gitlab.com/fieldops/route-planner.git
    git push --tags
""",
    gl=glpat(),
)

S(
    "ssh_config",
    """
    Added to ~/.ssh/config for the old NAS (it doesn't accept keys):
    Host oldnas
        HostName 192.168.1.20
        User admin
        # password: <<pw>>
        PubkeyAuthentication no
""",
    pw=pw("human"),
)

# ------------------------------------------------------------------------------------------------ package registries
S(
    "package_registry_credentials",
    """
    .npmrc in the monorepo root (this is what made `npm install` of @halden/* work):
    @halden:registry=https://npm.pkg.github.com
    //npm.pkg.github.com/:_authToken=<<gh>>
    always-auth=true
""",
    gh=gh_classic(),
)

S(
    "package_registry_credentials",
    """
    /etc/pip.conf on the build agents:
    [global]
    index-url = https://ci-reader:<<pw>>@pypi.internal.ridgeview.example/simple/
    timeout = 30
""",
    pw=pw("url"),
)

S(
    "package_registry_credentials",
    """
    ~/.gem/credentials (the user publishes the `tidy_csv` gem from this machine):
    ---
    :rubygems_api_key: rubygems_<<k>>
""",
    k=hx(48),
)

S(
    "package_registry_credentials",
    """
    ~/.cargo/credentials.toml, needed for `cargo publish` of quickbin:
    [registry]
    token = "cio<<k>>"
""",
    k=rs(32),
)

S(
    "package_registry_credentials",
    """
    NuGet.Config in the repo root (committed, unfortunately):
    <configuration>
      <packageSources>
        <add key="internal-feed" value="https://nuget.northgate-supply.example/v3/index.json" />
      </packageSources>
      <packageSourceCredentials>
        <internal-feed>
          <add key="Username" value="build" />
          <add key="ClearTextPassword" value="<<pw>>" />
        </internal-feed>
      </packageSourceCredentials>
    </configuration>
""",
    pw=pw("strong"),
)

S(
    "package_registry_credentials",
    """
    Maven ~/.m2/settings.xml server block for the Nexus deploy:
    <servers>
      <server>
        <id>nexus-releases</id>
        <username>deploy</username>
        <password><<pw>></password>
      </server>
    </servers>
""",
    pw=pw("human"),
)

# ------------------------------------------------------------------------------------------------ shell
S(
    "shell_export",
    """
    From ~/.zsh_history while retracing what the user ran yesterday:
    : 1731502211:0;export ANTHROPIC_API_KEY=<<k>>
    : 1731502230:0;python eval.py --model claude --limit 50
    : 1731502412:0;open results/index.html
""",
    k=anthropic_key(),
)

S(
    "shell_export",
    """
    - vault login works from the jump host now
    - export VAULT_ADDR=https://vault.corp.ridgeview.example:8200
    - export VAULT_TOKEN=hvs.<<t>>
    - token has the ops-admin policy, ttl 768h
""",
    t=rs(24),
)

S(
    "curl_httpie_wget",
    """
    Count of upcoming bookings (user runs this every Monday):
    curl -s -H "Authorization: Bearer cal_live_<<t>>" "https://api.cal.example/v2/bookings?status=upcoming" | jq '.data | length'
""",
    t=hx(32),
)

S(
    "curl_httpie_wget",
    """
    Sending the test email with httpie:
    http POST https://api.postmark.example/email X-Postmark-Server-Token:<<u>> From=hello@fernwood.example To=ines@fernwood.example Subject=test TextBody=hi
""",
    u=uid(),
)

S(
    "curl_httpie_wget",
    "Firmware download that needs the vendor portal login: wget --user=dl-halden --password='<<pw>>' https://downloads.vendor-portal.example/fw/rt-ax88u-3.0.0.4.zip",
    pw=pw("strong"),
)

S(
    "db_cli_password",
    '''mysql -h db1.shop.internal -u root -p'<<pw>>' shop -e "SELECT COUNT(*) FROM orders WHERE created_at > NOW() - INTERVAL 1 DAY"''',
    pw=pw("strong"),
)

S(
    "db_cli_password",
    r"""
    How the user connects to the warehouse from the laptop:
    psql "postgresql://report:<<pw>>@analytics-db.internal:5432/warehouse?sslmode=require" -c '\dt staging.*'
""",
    pw=pw("url"),
)

S(
    "db_cli_password",
    "Cache check: redis-cli -h cache-1.internal -p 6380 -a '<<pw>>' --no-auth-warning INFO memory | grep used_memory_human",
    pw=pw("strong"),
)

S(
    "db_cli_password",
    """
    mongosh "mongodb://admin:<<pw>>@10.0.3.12:27017/?authSource=admin"
    > use shop
    > db.orders.countDocuments({status: "stuck"})
    17
""",
    pw=pw("url"),
)

S(
    "sshpass_command",
    "Reboot script for the Pi: sshpass -p '<<pw>>' ssh -o StrictHostKeyChecking=no pi@192.168.1.40 'sudo reboot'",
    pw=pw("human"),
)

S(
    "cloud_cli_flags",
    """
    Service principal login used by the nightly job:
    az login --service-principal -u <<app>> -p '<<sec>>' --tenant <<ten>>
    az account set --subscription "Ridgeview Prod"
""",
    app=uid(),
    sec=azure_client_secret(),
    ten=uid(),
)

S(
    "cloud_cli_flags",
    """
    Set up the CI profile on the runner:
    aws configure set aws_access_key_id <<akid>> --profile ci
    aws configure set aws_secret_access_key <<sk>> --profile ci
    aws configure set region eu-central-1 --profile ci
""",
    akid=aws_akid(),
    sk=aws_secret(),
)

S(
    "cloud_cli_flags",
    "Reset the Cloud SQL app user: gcloud sql users set-password app_user --instance=main-pg --password='<<pw>>'",
    pw=pw("strong"),
)

S(
    "docker_kubectl_cli",
    "docker login -u halden -p <<t>> (Docker Hub, from the NAS so watchtower can pull private images)",
    t="dckr_pat_" + rs(27, URLSAFE),
)

S(
    "docker_kubectl_cli",
    """
    kubectl create secret generic stripe-keys -n shop \\
      --from-literal=api-key=<<sk>> \\
      --from-literal=webhook-secret=whsec_<<wh>>
""",
    sk=stripe_sk(),
    wh=rs(32),
)

S(
    "openssl_passin",
    "Bundled the cert for the Windows box: openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:<<pw>>",
    pw=pw("human"),
)

S(
    "openssl_passin",
    """
    nginx can't prompt for the key passphrase, so we stripped it:
    openssl rsa -in server.key -passin pass:<<pw>> -out server.nopass.key
    chmod 600 server.nopass.key
""",
    pw=pw("strong"),
)

S(
    "runbook_line",
    "Runbook, step 4: if the replica lags, open the pgbouncer admin console (psql -p 6432 pgbouncer) as pgbouncer / <<pw>> and run SHOW POOLS;",
    pw=pw("human"),
)

S(
    "runbook_line",
    """
    Break-glass (only if vCenter is down):
    - ESXi host root password: <<pw>>
    - log the login in #incidents and rotate afterwards
""",
    pw=pw("strong"),
)

# ------------------------------------------------------------------------------------------------ household / personal
S("household_code", "Front door keypad code changed to <<c>> on Sunday; the old one no longer works.", c=pin(4))

S(
    "household_code",
    "Alarm panel: disarm with <<c>>, the duress code is <<d>> (it silently calls the police, so don't mix them up).",
    c="2593",
    d="2594",
)

S(
    "household_code",
    "Cabin lockbox by the woodpile, combination <<c>>; the key for the shed is on the hook inside.",
    c="-".join(pin(4)),
)

S(
    "household_code",
    "Garage keypad: <<c>> then the up arrow. The neighbours' kids have seen it typed, so change it after the summer.",
    c=pin(6),
)

S(
    "household_code",
    "Dad's safe in the study: <<a>> left, <<b>> right, <<c>> left, then pull the handle down.",
    a=str(R.randint(1, 99)),
    b=str(R.randint(1, 99)),
    c=str(R.randint(1, 99)),
)

S(
    "wifi_password",
    "Home Wi-Fi is 'Kowalski_5G', password <<pw>> (the printed card on the fridge is out of date).",
    pw=pw("human"),
)

S(
    "wifi_password",
    "QR code for the living-room guest Wi-Fi decodes to WIFI:T:WPA;S:Casa-Ferreira;P:<<pw>>;;",
    pw=pw("words"),
)

S("wifi_password", "Office guest network 'Northwind-Guest', key <<pw>>, changes every quarter.", pw=pw("simple"))

S(
    "personal_pin",
    "User asked me to remember their debit card PIN: <<p>>. Told them a memory note isn't a good place for it; they insisted.",
    p=pin(4),
)

S(
    "personal_pin",
    """
    Marta's phone (new SIM):
    - SIM PIN <<p>>
    - PUK <<puk>>
    - the card it came on is in the drawer under the TV
""",
    p=pin(4),
    puk=pin(8),
)

S(
    "payment_card",
    """
    Company card for SaaS sign-ups (user said to use it for the trial):
    <<card>>, exp 08/28, CVC <<cvc>>, name J. Okafor
""",
    card=group(luhn_card()),
    cvc=pin(3),
)

S(
    "streaming_login",
    "Netflix: login family.santos@example.com / <<pw>> (also signed in on grandma's TV).",
    pw=pw("human"),
)

S(
    "streaming_login",
    """
    Disney+ for the kids
    - account: dad's email (rui.m@example.com)
    - password: <<pw>>
    - the kids' profile PIN is <<p>>
""",
    pw=pw("simple"),
    p=pin(4),
)

S(
    "school_portal_login",
    "Lena's school portal: username lena.m.2031, password <<pw>> (the teacher reset it on Monday).",
    pw=pw("simple"),
)

S("school_portal_login", "Tomasz, Google Classroom: tomasz.w@students.sp12.example / <<pw>>", pw=pw("human"))

S(
    "prose_password",
    "The user told me the staging admin password is <<pw>>; prod uses SSO so there's no equivalent there.",
    pw=pw("human"),
)

S(
    "prose_password",
    "Router admin page (192.168.0.1) is still on the factory login admin / admin: the user hasn't changed it.",
)

S(
    "prose_password",
    "Jenkins: user ci-bot, pass <<pw>>; it's the only account that can trigger the release job.",
    pw=pw("strong"),
)

# ------------------------------------------------------------------------------------------------ other languages
S("prose_password_it", "La password del router è <<pw>>, l'ha cambiata Marco ieri sera.", pw=pw("human"))
S(
    "prose_password_it",
    """
    Credenziali del gestionale fatture:
    utente: amministrazione
    password: <<pw>>
    (non darle al commercialista, ha il suo account)
""",
    pw=pw("strong"),
)
S("prose_password_pt", "A senha do Wi-Fi da casa da praia é <<pw>> (rede 'PraiaNet').", pw=pw("simple"))
S(
    "prose_password_pt",
    "Portal do banco (conta PJ): usuário financeiro.lima, senha <<pw>>. O token físico fica com a Renata.",
    pw=pw("human"),
)
S("prose_password_nl", "Het wachtwoord van de NAS is <<pw>>, gebruikersnaam admin.", pw=pw("human"))
S(
    "prose_password_nl",
    "Pincode van de fietskluis bij het station: <<p>>. Sleutel van de kelder hangt in de gang.",
    p=pin(4),
)
S("prose_password_pl", "Hasło do bankowości: <<pw>> (login: <<login>>).", pw=pw("strong"), login=digits(8))
S("prose_password_pl", "Kod do domofonu u babci: <<c>>, hasło do Wi-Fi u niej: <<pw>>.", c=pin(4), pw=pw("simple"))
S("prose_password_ja", "社内VPNのパスワードは <<pw>> です。ユーザー名は tanaka-k。", pw=pw("strong"))
S("prose_password_ja", "実家のWi-Fi：SSIDは aterm-5e1c2a-g、暗号化キーは <<k>>", k=rs(13, LOWER_ALNUM))
S(
    "prose_password_es",
    "La contraseña del correo de la oficina es <<pw>>; el usuario es recepcion@clinica-sol.example.",
    pw=pw("human"),
)
S(
    "prose_password_es",
    "Clave del portal de la compañía de la luz: <<pw>> (el usuario es el DNI de mamá).",
    pw=pw("simple"),
)
S("prose_password_de", "Das Passwort für den Drucker-Admin (Web-Oberfläche) ist <<pw>>.", pw=pw("human"))
S(
    "prose_password_de",
    """
    Zugangsdaten FRITZ!Box:
    - Adresse: http://fritz.box
    - Kennwort: <<pw>> (steht nicht mehr auf dem Aufkleber, wurde geändert)
""",
    pw=pw("words"),
)

# ------------------------------------------------------------------------------------------------ dictated, tables, split, disguised
S(
    "password_dictated",
    "User said the NAS password is their dog's name, Biscuit, capital B, then 1987, then an exclamation mark.",
)
S(
    "password_dictated",
    "Spelled out over the phone for the VPN: capital Q, lowercase r, seven, hash, m, m, capital Z, two, zero.",
)
S("password_dictated", "Family iPad passcode: the word 'purple' in capitals followed by our house number, 114.")

S(
    "password_markdown_table",
    """
    | Service  | User               | Password   |
    |----------|--------------------|------------|
    | Synology | admin              | <<a>> |
    | Plex     | house@halden.example | <<b>> |
    | Router   | admin              | <<c>> |
""",
    a=pw("human"),
    b=pw("simple"),
    c=pw("strong"),
)

S(
    "password_markdown_table",
    """
    Homelab logins (user asked for a table):

    | Host   | Login | Pass        | Notes               |
    |--------|-------|-------------|---------------------|
    | pve1   | root  | `<<a>>` | Proxmox UI on :8006 |
    | pihole | -     | `<<b>>` | web admin only      |
""",
    a=pw("strong"),
    b=pw("human"),
)

_split_sk = stripe_sk()
S(
    "split_across_lines",
    """
    The live Stripe key, split because the chat window wrapped it:
    first half: <<a>>
    second half: <<b>>
    (concatenate, no space)
""",
    a=_split_sk[:55],
    b=_split_sk[55:],
)

_split_pw = pw("strong")
S(
    "split_across_lines",
    """
    password (line 1 of 2): <<a>>
    (line 2 of 2): <<b>>
""",
    a=_split_pw[:8],
    b=_split_pw[8:],
)

_split_aws = aws_secret()
S(
    "split_across_lines",
    """
    AWS secret for the backup user, wrapped by the terminal:
    <<a>>
    <<b>>
    key id <<akid>>
""",
    a=_split_aws[:24],
    b=_split_aws[24:],
    akid=aws_akid(),
)

S("obfuscated_unicode", "Staging DB password (copied from the user's message): <<pw>>", pw=zero_width(pw("strong")))
S(
    "obfuscated_unicode",
    "Admin pw for the shop backend: <<pw>>",
    pw=homoglyph("Paprika-Mosaic-" + str(R.randint(10, 99))),
)
S(
    "obfuscated_unicode",
    "The token the user pasted (had an odd invisible character in it, still works): <<t>>",
    t=zero_width(gh_classic(), every=17, mark="\u200d"),
)
S("obfuscated_unicode", "銀行アプリのPIN：<<p>>（全角で入力したまま）", p=fullwidth(pin(6)))

# ------------------------------------------------------------------------------------------------ URLs, TOTP, app passwords
S(
    "url_userinfo",
    "Grafana link that skips the SSO page: https://admin:<<pw>>@grafana.internal.ridgeview.example/d/k8s-nodes",
    pw=pw("url"),
)
S("url_userinfo", "Upload folder at the print shop: ftp://upload:<<pw>>@ftp.printshop.example/incoming/", pw=pw("url"))
S("url_userinfo", "Barn webcam stream for VLC: rtsp://viewer:<<pw>>@192.168.8.31:554/stream1", pw=pw("url"))

S(
    "url_query_token",
    "Currency job calls https://api.fxrates.example/v1/latest?access_key=<<k>>&base=EUR&symbols=PLN,USD",
    k=hx(32),
)
S(
    "url_query_token",
    "Login link the vendor emailed (works as-is): https://portal.tradeserve.example/login?user=jsmith&password=<<pw>>",
    pw=pw("url"),
)

S(
    "otpauth_uri",
    "From the QR the user screenshotted: otpauth://totp/GitHub:mkowal?secret=<<s>>&issuer=GitHub",
    s=rs(32, B32),
)
S("otpauth_uri", 'Setup key shown under "Can\'t scan the code?" for the exchange account: <<s>>', s=group(rs(32, B32)))

S(
    "app_specific_password",
    "Gmail app password for the scanner's scan-to-email: <<p>>",
    p=group(rs(16, string.ascii_lowercase)),
)
S(
    "app_specific_password",
    "Apple app-specific password for Thunderbird (iCloud mail): <<p>>",
    p=group(rs(16, string.ascii_lowercase), sep="-"),
)

S(
    "recovery_codes",
    """
    GitHub recovery codes (user wants them "somewhere safe", I suggested the password manager):
    <<codes>>
""",
    codes="\n".join(f"{hx(5)}-{hx(5)}" for _ in range(8)),
)
S(
    "recovery_codes",
    """
    Google backup codes for ines.f@example.com
    1. <<c1>>   2. <<c2>>
    3. <<c3>>   4. <<c4>>
    5. <<c5>>   6. <<c6>>
""",
    c1=group(pin(8)),
    c2=group(pin(8)),
    c3=group(pin(8)),
    c4=group(pin(8)),
    c5=group(pin(8)),
    c6=group(pin(8)),
)

# ------------------------------------------------------------------------------------------------ private keys
S(
    "private_key_ssh",
    """
    Deploy key for the staging box (the user pasted the whole file):
    <<k>>
""",
    k=openssh_private(),
)

_rsa = pem_lines(RSA_DER, 1180)
S(
    "private_key_ssh",
    """
    Old server key, the paste got cut off:
    -----BEGIN RSA PRIVATE KEY-----
    <<body>>
    ...(rest cut off)
""",
    body="\n".join(_rsa[:5]),
)

S(
    "private_key_ssh",
    """
    EC key for the MQTT broker TLS (mosquitto keyfile):
    <<k>>
""",
    k=ec_private(),
)

S(
    "private_key_pgp",
    """
    Exported with gpg --export-secret-keys --armor ines@fernwood.example, first lines only:
    -----BEGIN PGP PRIVATE KEY BLOCK-----

    <<body>>
    [... 40 more lines ...]
""",
    body="\n".join(pem_lines(b"\x94\x58\x04", 300)[:4]),
)

S(
    "private_key_pgp",
    """
    Signing subkey for the release bot (no passphrase on this one):
    <<k>>
""",
    k=pgp_block("PRIVATE", b"\x94\x58\x04", 220),
)

# ------------------------------------------------------------------------------------------------ connection strings
S(
    "db_connection_string",
    "Payroll API connection string: Server=tcp:sql-prod-01.database.windows.net,1433;Initial Catalog=Payroll;User ID=payroll_app;Password=<<pw>>;Encrypt=True;TrustServerCertificate=False;",
    pw=pw("strong"),
)
S(
    "db_connection_string",
    "spring.datasource.url=jdbc:oracle:thin:ledger/<<pw>>@//oradb01.corp.example:1521/LEDGERPDB",
    pw=pw("url"),
)
S(
    "db_connection_string",
    "The Excel refresh uses: Driver={ODBC Driver 18 for SQL Server};Server=10.1.2.30;Database=Warehouse;Uid=etl_loader;Pwd={<<pw>>};Encrypt=yes;",
    pw=pw("strong"),
)
S("db_connection_string", "Quick check of the HR schema: sqlplus hr_app/<<pw>>@//oradb01:1521/ORCLPDB1", pw=pw("url"))
S(
    "db_connection_string",
    "MONGODB_URI=mongodb+srv://appUser:<<pw>>@cluster0.<<c>>.mongodb.net/shop?retryWrites=true&w=majority",
    pw=pw("url"),
    c=rs(5, LOWER_ALNUM),
)
S(
    "db_connection_string",
    "Celery broker: CELERY_BROKER_URL=amqp://celery:<<pw>>@rabbit.internal:5672/jobs",
    pw=pw("url"),
)
S("db_connection_string", "REDIS_URL=rediss://default:<<pw>>@eu1-lasting-gull-38112.upstash.io:6379", pw=rs(32))
S(
    "db_connection_string",
    "Outgoing mail for the alerts: EMAIL_URL=smtp+tls://alerts%40ridgeview.example:<<pw>>@smtp.office365.com:587",
    pw=pw("url"),
)

# ------------------------------------------------------------------------------------------------ cloud
S(
    "aws_credentials",
    """
    ~/.aws/credentials on the backup VM:
    [default]
    aws_access_key_id = <<akid>>
    aws_secret_access_key = <<sk>>
""",
    akid=aws_akid(),
    sk=aws_secret(),
)

S(
    "aws_credentials",
    """
    Temporary creds from the SSO portal (valid ~12 h), pasted so I could run the cost report:
    export AWS_ACCESS_KEY_ID=<<akid>>
    export AWS_SECRET_ACCESS_KEY=<<sk>>
    export AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE<<tok>>
""",
    akid=aws_akid("ASIA"),
    sk=aws_secret(),
    tok=rs(300, B64CHARS),
)

_gcp_key = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(pem_lines(PKCS8_DER, 1150)) + "\\n-----END PRIVATE KEY-----\\n"
S(
    "gcp_service_account",
    """
    Service account key the user downloaded for the photo uploader (uploader.json):
    {
      "type": "service_account",
      "project_id": "halden-photos",
      "private_key_id": "<<kid>>",
      "private_key": "<<key>>",
      "client_email": "uploader@halden-photos.iam.gserviceaccount.com",
      "client_id": "<<cid>>",
      "auth_uri": "https://accounts.google.com/o/oauth2/auth",
      "token_uri": "https://oauth2.googleapis.com/token"
    }
""",
    kid=hx(40),
    key=_gcp_key,
    cid=digits(21),
)

S(
    "gcp_service_account",
    """
    The two lines of the GCP key file that matter, from the user's paste:
    "private_key_id": "<<kid>>",
    "private_key": "-----BEGIN PRIVATE KEY-----\\n<<body>>\\n... (truncated in chat)
""",
    kid=hx(40),
    body="\\n".join(pem_lines(PKCS8_DER, 1150)[:3]),
)

S(
    "azure_credentials",
    "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=haldenbackups;AccountKey=<<k>>;EndpointSuffix=core.windows.net",
    k=b64(64),
)
S(
    "azure_credentials",
    "SAS URL for the photo container (write access until end of next year): https://haldenbackups.blob.core.windows.net/photos?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-12-31T23:59:59Z&st=2025-01-01T00:00:00Z&spr=https&sig=<<sig>>",
    sig=b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"),
)
S(
    "azure_credentials",
    """
    App registration "invoice-sync":
    - client id: <<cid>>
    - tenant: <<tid>>
    - client secret: <<sec>> (expires 2026-06-30)
""",
    cid=uid(),
    tid=uid(),
    sec=azure_client_secret(),
)

S("paas_token", "doctl auth init --access-token dop_v1_<<t>> --context halden", t=hx(64))
S(
    "paas_token",
    "Cloudflare API token for the DNS-01 challenge (Zone.DNS edit on halden-home.example): <<t>>",
    t=rs(40, URLSAFE),
)
S("paas_token", "Added VERCEL_TOKEN=<<t>> to the Pi's ~/.profile so `vercel deploy --prod` works from cron.", t=rs(24))
S("paas_token", "netlify deploy --prod --dir=dist --auth nfp_<<t>> --site <<site>>", t=rs(36), site=uid())
S(
    "paas_token",
    """
    Supabase keys for the admin scripts (server side only, this one bypasses RLS):
    SUPABASE_URL=https://<<ref>>.supabase.co
    SUPABASE_SERVICE_ROLE_KEY=<<k>>
""",
    ref="qvnkaztxlmbrhdopwcse",
    k=supabase_jwt("service_role", "qvnkaztxlmbrhdopwcse"),
)
S(
    "paas_token",
    r"""
    Old push-notification test from the user's notes (legacy FCM API):
    curl -X POST https://fcm.googleapis.com/fcm/send \
      -H "Authorization: key=AAAA<<a>>:APA91b<<b>>" \
      -H "Content-Type: application/json" \
      -d '{"to": "/topics/all", "notification": {"title": "Test"}}'
""",
    a=rs(7, URLSAFE),
    b=rs(134, URLSAFE),
)

# ------------------------------------------------------------------------------------------------ SaaS vendors
S(
    "messaging_api_key",
    """
    Twilio for the SMS reminders:
    Account SID AC<<sid>>
    Auth Token <<tok>>
    From number +1 415 555 0199
""",
    sid=hx(32),
    tok=hx(32),
)
S(
    "messaging_api_key",
    "SENDGRID_API_KEY=SG.<<a>>.<<b>> (full access; the user said the restricted ones kept failing)",
    a=rs(22, URLSAFE),
    b=rs(43, URLSAFE),
)
S(
    "messaging_api_key",
    "Mailgun sending key for mg.ridgeview.example: key-<<k>> (EU region, api.eu.mailgun.net)",
    k=hx(32),
)

S(
    "chat_bot_token",
    "Slack bot for #deploys is 'shipit' with scopes chat:write, channels:read; token <<t>>",
    t=slack_bot(),
)
S(
    "chat_bot_token",
    "Discord bot token for the guild music bot: <<t>> (regenerate if it ever shows up in a log)",
    t=discord_bot(),
)
S(
    "chat_bot_token",
    """
    Doorbell notifications:
    - bot: @HaldenDoorbellBot
    - token from BotFather: <<t>>
    - chat id: 48213377
""",
    t=telegram_bot(),
)

S(
    "vcs_token",
    "New fine-grained PAT for the release script (contents read/write on atlas-cli only, 90 days): <<t>>",
    t=gh_fine(),
)
S(
    "vcs_token",
    "<<t>> is the project access token for the mirror job (role Maintainer, scope write_repository).",
    t=glpat(),
)
S(
    "vcs_token",
    "Bitbucket app password for the Jenkins job: username ridgeview-ci, app password ATBB<<t>>",
    t=rs(28) + hx(8).upper(),
)

S("publish_token", "npm automation token for publishing @ridgeview/ui: npm_<<t>>", t=rs(36))
S(
    "publish_token",
    """
    ~/.pypirc so twine upload works:
    [pypi]
      username = __token__
      password = pypi-AgEIcHlwaS5vcmc<<t>>
""",
    t=rs(150, URLSAFE),
)
S(
    "publish_token",
    "Docker Hub personal access token (read/write), user halden, for the nightly image push: dckr_pat_<<t>>",
    t=rs(27, URLSAFE),
)

S("ai_api_key", "HF_TOKEN=hf_<<t>> (write access, needed to push the fine-tuned adapter)", t=rs(34))
S(
    "ai_api_key",
    """
    PowerShell profile on the Windows box:
    $env:OPENAI_API_KEY = "<<k>>"
    $env:OPENAI_ORG = "org-<<org>>"
""",
    k=openai_key(),
    org=rs(24),
)
S(
    "ai_api_key",
    "The user's Anthropic key for the eval harness is <<k>>; usage is billed to the research workspace.",
    k=anthropic_key(),
)

S("saas_api_key", "Restricted Stripe key for the support tool (read charges, write refunds): rk_live_51<<t>>", t=rs(97))
S(
    "saas_api_key",
    "Shopify admin API token for the custom app 'stock-sync' on fernwood-goods.myshopify.com: shpat_<<t>>",
    t=hx(32),
)
S(
    "saas_api_key",
    "Jira API token for the automation user bot@ridgeview.example: ATATT3xFfGF0<<t>>=<<c>>",
    t=rs(170, URLSAFE),
    c=hx(8).upper(),
)
S("saas_api_key", "LINEAR_API_KEY=lin_api_<<t>> (personal key, used by the changelog script)", t=rs(40))
S(
    "saas_api_key",
    """
    Notion sync for the reading list:
    - integration secret: ntn_<<t>>
    - database id: <<db>>
""",
    t=rs(46),
    db=hx(32),
)

S(
    "observability_key",
    "Legacy PHP app still uses the old Sentry DSN with the secret part: https://<<pub>>:<<sec>>@sentry.ridgeview.example/7",
    pub=hx(32),
    sec=hx(32),
)
S(
    "observability_key",
    """
    datadog-agent env on the new VM:
    DD_API_KEY=<<a>>
    DD_APP_KEY=<<b>>
    DD_SITE=datadoghq.eu
""",
    a=hx(32),
    b=hx(40),
)
S("observability_key", "New Relic user key for the dashboards-as-code job: NRAK-<<t>>", t=rs(27, UPPER_ALNUM))

S("webhook_secret", "Deploy notifications post to <<u>> (channel #deploys).", u=slack_hook())
S(
    "webhook_secret",
    "Minecraft server alerts go to the Discord webhook https://discord.com/api/webhooks/<<id>>/<<t>>",
    id=digits(19),
    t=rs(68, URLSAFE),
)
S("webhook_secret", "Signing secret for the prod Stripe webhook endpoint (/api/stripe/webhook): whsec_<<t>>", t=rs(32))

S(
    "signed_url",
    "Presigned link to the Q3 export for the accountant (valid 7 days): https://ridgeview-exports.s3.eu-central-1.amazonaws.com/q3/export.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=<<akid>>%2F20251118%2Feu-central-1%2Fs3%2Faws4_request&X-Amz-Date=20251118T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=<<sig>>",
    akid=aws_akid(),
    sig=hx(64),
)
S(
    "signed_url",
    "Download link for the wedding photos (24 h): https://storage.googleapis.com/halden-photos/2025/wedding.zip?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=signer%40halden-photos.iam.gserviceaccount.com%2F20251120%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20251120T090000Z&X-Goog-Expires=86400&X-Goog-SignedHeaders=host&X-Goog-Signature=<<sig>>",
    sig=hx(512),
)

S(
    "oauth_secret_refresh",
    """
    OAuth client for the calendar sync (Google Cloud console, project halden-home):
    client id: <<n>>-<<s>>.apps.googleusercontent.com
    client secret: GOCSPX-<<sec>>
""",
    n=digits(12),
    s=rs(32, LOWER_ALNUM),
    sec=rs(28, URLSAFE),
)
S(
    "oauth_secret_refresh",
    "Refresh token from the OAuth playground so the backup script can run headless: 1//0<<t>>",
    t=rs(2, UPPER_ALNUM) + rs(100, URLSAFE),
)
S(
    "oauth_secret_refresh",
    "Spotify app 'party-queue': SPOTIFY_CLIENT_ID=<<a>> SPOTIFY_CLIENT_SECRET=<<b>>",
    a=hx(32),
    b=hx(32),
)

S(
    "session_cookie",
    """
    To reproduce the bug as the user I used their browser session:
    Cookie: sessionid=<<s>>; csrftoken=<<c>>
""",
    s=rs(32, LOWER_ALNUM),
    c=rs(64),
)
S(
    "session_cookie",
    "__Secure-next-auth.session-token=<<t>> copied from devtools so the scraper can log in as the user.",
    t=b64url(24) + ".." + b64url(12) + "." + b64url(400) + "." + b64url(16),
)

S(
    "bearer_jwt",
    "Admin token that works against staging until the 30th: Authorization: Bearer <<t>>",
    t=jwt({"sub": "u_1042", "role": "admin", "iss": "https://auth.staging.ridgeview.example", "exp": 2080000000}),
)
S(
    "bearer_jwt",
    "Service token the user generated for the mobile build pipeline: <<t>>",
    t=jwt(
        {
            "sub": "svc-mobile-ci",
            "scope": "builds:write artifacts:write",
            "aud": "api.ridgeview.example",
            "exp": 2085000000,
        },
        alg="RS256",
        kid=hx(16),
    ),
)

S(
    "revoked_key_value",
    "Rotated today. For the record, the leaked key was <<k>>; it has been rolled in the dashboard and the new one is in Vault.",
    k=stripe_sk(),
)
S(
    "revoked_key_value",
    "Old GitLab token <<t>> revoked after the laptop was stolen; the runner got a new one.",
    t=glpat(),
)

# =============================================================================================== BENIGN NOTES
# ------------------------------------------------------------------------------------------------ talk, pointers
B(
    "credential_mention_no_value",
    "Rotated the prod DB password today after Kim left; the new one only exists in Vault. Apps picked it up after a restart.",
)
B(
    "credential_mention_no_value",
    """
    - asked the user for the Stripe key; they'll paste it into the deployment settings themselves
    - nothing stored on my side
    - checkout test still pending until then
""",
)
B(
    "credential_mention_no_value",
    'The API key for the weather service expired last week, which is why the widget shows "--". User will renew it.',
)
B(
    "credential_mention_no_value",
    "Reminder: the Wi-Fi password at the lake house was changed in August. Ask Paulo if it doesn't work.",
)
B(
    "credential_mention_no_value",
    "User confirmed 2FA is on for GitHub, Google and the bank; the recovery codes are printed and in the fireproof box.",
)
B(
    "credential_mention_no_value",
    "SSH to the build box now uses the user's YubiKey; password login is off (PasswordAuthentication no in sshd_config).",
)

B("password_manager_pointer", "Prod DB credentials are in 1Password, vault 'Infra', item 'Prod DB (primary)'.")
B(
    "password_manager_pointer",
    "Bitwarden: the shared family collection has the Netflix and Disney+ logins; the kids' school logins are under 'School 2025'.",
)
B(
    "password_manager_pointer",
    "Credential for the partner SFTP drop: op://Engineering/partner-sftp/password (read it with `op read`, never paste it).",
)
B(
    "password_manager_pointer",
    "KeePassXC database is ~/Sync/vault.kdbx; the key file is on the USB stick, deliberately not in Sync.",
)
B(
    "password_manager_pointer",
    "Router admin password: see the LastPass note 'Home network' (the user's mum has access too).",
)

# ------------------------------------------------------------------------------------------------ placeholders, references
B("placeholder_template", "To authenticate: curl -H 'Authorization: Bearer <your-token>' https://api.example.com/v1/me")
B(
    "placeholder_template",
    """
    .env.example we committed today:
    DATABASE_URL=postgres://user:password@localhost:5432/app
    SECRET_KEY=changeme  # example only; generate one with `openssl rand -hex 32`
    SENTRY_DSN=
""",
)
B(
    "placeholder_template",
    "Set the key in settings as API_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; the real one goes in the CI variables.",
)
B(
    "placeholder_template",
    """
    Helm template for the DB secret:
    stringData:
      password: {{ .Values.db.password | quote }}
      apiKey: {{ required "apiKey is required" .Values.apiKey | quote }}
""",
)
B(
    "placeholder_template",
    "GitHub Actions step: `env: NPM_TOKEN: ${{ secrets.NPM_TOKEN }}`; npm publish then reads it through .npmrc.",
)
B(
    "placeholder_template",
    r"Logon script maps the share with: net use Z: \\fs01\projects /user:CORP\%USERNAME% %SHARE_PASSWORD%",
)
B(
    "placeholder_template",
    "From the docs template: `mysql -u <user> -p<password> -h <host>`; replace the angle brackets before running.",
)

B(
    "env_var_reference",
    'psql "$DATABASE_URL" works once direnv has loaded .envrc; the value itself comes from `vault kv get`.',
)
B(
    "env_var_reference",
    'docker run -e POSTGRES_PASSWORD="$PG_PASS" -p 5432:5432 postgres:16 (PG_PASS is exported by the user\'s ~/.secrets script)',
)
B(
    "env_var_reference",
    "In the compose file the admin password is `${GRAFANA_ADMIN_PASSWORD:?set me}` so it fails fast when missing.",
)
B("env_var_reference", "Terraform reads var.db_password, which TF_VAR_db_password supplies in CI.")
B(
    "env_var_reference",
    """
    Deployment spec for the API:
    envFrom:
      - secretRef:
          name: api-secrets
    (no literal values anywhere in the chart)
""",
)

B("redacted_masked", "Key in use: sk-\u2026a41f (the OpenAI dashboard shows only the last four).")
B(
    "redacted_masked",
    "Connection string from the portal: Server=tcp:sql-prod-01.database.windows.net,1433;User ID=payroll_app;Password=********;Encrypt=True;",
)
B("redacted_masked", "Log line: Authorization: Bearer [REDACTED]. Our logger masks it, good.")
B("redacted_masked", "AWS key AKIA************7QXZ is the one the billing job uses; rotate it in March.")
B(
    "redacted_masked",
    "GitHub token ghp_\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u20223kD9 is the new one (scopes: repo, workflow).",
)
B(
    "redacted_masked",
    "The Stripe dashboard lists the restricted key as rk_live_...Xq2M; no full value anywhere in the notes.",
)

# ------------------------------------------------------------------------------------------------ public material
B("public_key_cert", "User's public key for the new server (authorized_keys): <<k>> ines@laptop", k=ssh_ed25519_pub())
B(
    "public_key_cert",
    """
    Intermediate cert the load balancer needs (chain.pem):
    <<c>>
""",
    c=pem("CERTIFICATE", CERT_DER, 770),
)
B(
    "public_key_cert",
    """
    Release signing key (public), for the download page:
    <<k>>
""",
    k=pgp_block("PUBLIC", b"\x98\x33\x04", 130),
)
B("public_key_cert", "sops recipient for the team (age public key): age1<<k>>", k=rs(58, BECH32))
B(
    "public_key_cert",
    """
    WireGuard peer for the phone, as added on the server:
    [Peer]
    PublicKey = <<k>>
    AllowedIPs = 10.8.0.3/32
    PersistentKeepalive = 25
""",
    k=b64(32),
)

B(
    "ssh_host_fingerprint",
    "Host key for build-02 (ED25519): <<fp>>; checked with the user before accepting.",
    fp=ssh_fp(),
)
B("ssh_host_fingerprint", "Added to known_hosts: git.ridgeview.example <<k>>", k=ssh_ed25519_pub())
B(
    "ssh_host_fingerprint",
    """
    The authenticity of host 'gw.ridgeview.example (203.0.113.7)' can't be established.
    ECDSA key fingerprint is <<fp>>.
    User confirmed it matches the console output, so we said yes.
""",
    fp=ssh_fp(),
)

B(
    "git_sha",
    'Bisected the regression to <<a>> ("refactor: move tax rounding into Money"); its parent <<b>> is fine.',
    a=hx(40),
    b=hx(40),
)
B("git_sha", "Release v2.8.0 is the tag on <<a>>; the hotfix branch was cut from <<b>>.", a=hx(40), b=hx(7))
B(
    "git_sha",
    """
    git log --oneline -3
    <<a>> Fix flaky upload test
    <<b>> Bump ruff to 0.7.1
    <<c>> Docs: explain retry policy
""",
    a=hx(7),
    b=hx(7),
    c=hx(7),
)

B(
    "checksum_digest",
    """
    sha256sum of the release tarballs:
    <<a>>  atlas-cli-1.4.0-linux-amd64.tar.gz
    <<b>>  atlas-cli-1.4.0-darwin-arm64.tar.gz
""",
    a=hx(64),
    b=hx(64),
)
B("checksum_digest", "Prod runs ghcr.io/ridgeview/api@sha256:<<d>> (built from main on Tuesday).", d=hx(64))
B("checksum_digest", 'package-lock entry for left-pad: "integrity": "sha512-<<i>>"', i=b64(64))
B(
    "checksum_digest",
    "The CDN serves main.<<a>>.js and styles.<<b>>.css; the hash in the filename changes on every build.",
    a=hx(8),
    b=hx(8),
)

B(
    "uuid_ulid_request_id",
    "Support ticket for the failed payout: request id <<u>>, Stripe asked us to quote it.",
    u=uid(),
)
B("uuid_ulid_request_id", "Order ids in the new table are ULIDs like <<a>>; they sort by creation time.", a=ulid())
B("uuid_ulid_request_id", "Customer's tenant id is <<a>>, workspace id <<b>>.", a=uid(), b=uid())
B(
    "uuid_ulid_request_id",
    "x-request-id: <<a>> / x-amzn-RequestId: <<b>>, both from the 502 at 10:14.",
    a=hx(32),
    b=uid(),
)

B(
    "base64_media",
    'Favicon inlined in the email template: <img src="data:image/png;base64,<<p>>" width="16">',
    p=tiny_png(),
)
B(
    "base64_media",
    """
    The icon font is inlined in the CSS:
    @font-face {
      font-family: "glyphs";
      src: url(data:font/woff2;base64,<<f>>) format("woff2");
    }
""",
    f=base64.b64encode(b"wOF2\x00\x01\x00\x00" + rbytes(150)).decode(),
)
B(
    "base64_media",
    """
    ConfigMap with the favicon for the status page:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: status-assets
    binaryData:
      favicon.ico: <<i>>
""",
    i=base64.b64encode(b"\x00\x00\x01\x00\x01\x00\x10\x10" + rbytes(100)).decode(),
)

B("hex_colours", "Brand colours the user picked: primary #1F6FEB, accent #F59E0B, background #0D1117, text #E6EDF3.")
B("hex_colours", "Tailwind theme: colors: { moss: '#4A5D23', clay: '#B5651D', fog: '#D9DEE3', ink: '#1B1F24' }")

B(
    "public_test_values",
    "Stripe test mode: card 4242 4242 4242 4242 with any future expiry and any CVC; 4000 0000 0000 9995 tests a decline (from Stripe's testing docs).",
)
B(
    "public_test_values",
    "The tutorial uses the example pair from the AWS documentation, AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY; not a real key.",
)
B(
    "public_test_values",
    "Workshop slides show jwt.io's default sample token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
)
B(
    "public_test_values",
    "Twilio magic test numbers (test credentials only): +15005550006 is a valid 'from', +15005550001 is invalid.",
)

B(
    "password_policy",
    "New rule for the admin portal: at least 12 characters, no reuse of the last 5, no forced rotation unless compromised.",
)
B("password_policy", "Auth service config: PASSWORD_MIN_LENGTH=14, PASSWORD_REQUIRE_SYMBOL=false, LOCKOUT_AFTER=10.")
B("password_policy", "The bank's rule: the online PIN must be 6 digits and can't be a birth date or 123456.")

B("password_hash", "htpasswd entry for the staging basic auth: preview:$2y$10$<<h>>", h=rs(53, CRYPT64))
B(
    "password_hash",
    "Django user row after the migration: password = argon2$argon2id$v=19$m=102400,t=2,p=8$<<s>>$<<h>>",
    s=rs(22, ALNUM),
    h=rs(43, ALNUM + "+/"),
)
B(
    "password_hash",
    "/etc/shadow line for the kiosk user: kiosk:$6$<<s>>$<<h>>:19802:0:99999:7:::",
    s=rs(16, CRYPT64),
    h=rs(86, CRYPT64),
)

B(
    "wifi_name_only",
    "Office Wi-Fi networks: 'Ridgeview-Staff' (802.1X, log in with the Google account) and 'Ridgeview-Guest'.",
)
B(
    "wifi_name_only",
    "Phone keeps joining 'FRITZ!Box 7590 KQ' instead of the mesh 'Halden-Mesh'; told the user to forget the old one.",
)
B("wifi_name_only", "Hotel Wi-Fi is 'Hotel_Aurora_Free'; the captive portal asks for room number and surname.")

B(
    "flag_variable_names",
    "Use `--password-file /run/secrets/db_pw` instead of `--password` so nothing lands in shell history.",
)
B(
    "flag_variable_names",
    "Renamed SECRET_KEY to DJANGO_SECRET_KEY across the settings modules; the value still comes from the environment.",
)
B(
    "flag_variable_names",
    "Feature flags: enable_token_refresh, show_api_key_banner, require_2fa_for_admins (all off in staging).",
)
B(
    "flag_variable_names",
    """
    Workflow permissions block (no PAT needed with OIDC):
    permissions:
      contents: read
      id-token: write
""",
)

B(
    "public_client_id",
    "Stripe publishable key for the checkout page (public, it ships in the browser bundle): pk_live_51<<k>>",
    k=rs(97),
)
B(
    "public_client_id",
    "Google OAuth client ID for the web app: <<n>>-<<s>>.apps.googleusercontent.com (the client secret is in Secret Manager, not here).",
    n=digits(12),
    s=rs(32, LOWER_ALNUM),
)
B(
    "public_client_id",
    """
    Firebase web config from the console; it is public and ends up in the JS bundle:
    apiKey: "AIza<<k>>",
    authDomain: "plantwise-7c1d2.firebaseapp.com",
    projectId: "plantwise-7c1d2",
    appId: "1:<<n>>:web:<<h>>"
""",
    k=rs(35, URLSAFE),
    n=digits(12),
    h=hx(22),
)
B(
    "public_client_id",
    "Sentry DSN for the front end (public by design, no secret part): https://<<k>>@o<<o>>.ingest.sentry.io/<<p>>",
    k=hx(32),
    o=digits(6),
    p=digits(7),
)
B(
    "public_client_id",
    "Supabase anon key for the mobile app (public; row-level security does the protecting): <<k>>",
    k=supabase_jwt("anon", "hzbtrcqmeuyfwlpanxok"),
)
B(
    "public_client_id",
    "Docs search widget: Algolia app id <<a>>, search-only API key <<k>> (public, search ACL only).",
    a=rs(10, UPPER_ALNUM),
    k=hx(32),
)

# ------------------------------------------------------------------------------------------------ numbers that aren't credentials
B("tracking_numbers", "Parcel with the replacement router: UPS 1Z<<a>>, due Thursday.", a=rs(16, UPPER_ALNUM))
B(
    "tracking_numbers",
    "Two parcels this week: DHL <<a>> (shoes) and Royal Mail <<b>>GB (the book).",
    a=digits(10),
    b=rs(2, string.ascii_uppercase) + digits(9),
)

B(
    "business_iban_invoice",
    "Invoice from Kranz Elektrotechnik GmbH (#2025-1187, EUR 1,482.60): pay to IBAN <<i>>, reference the invoice number, due in 14 days.",
    i=group(iban("DE", digits(8) + pin(10))),
)
B(
    "business_iban_invoice",
    """
    Footer printed on all of our studio's invoices:
    Lumen Studio BV | KvK <<kvk>> | BTW NL<<btw>>B01
    IBAN <<i>> | BIC LMNSNL2A
""",
    kvk=digits(8),
    btw=digits(9),
    i=group(iban("NL", "LMNS" + pin(10))),
)

B("phone_numbers", "Renovation contacts: plumber Dave 07700 900 318, electrician Jess +1 (415) 555-0134.")
B("phone_numbers", "Dentist moved the appointment to Thu 14:30; their number is 020 7946 0958 if it changes again.")

B(
    "licence_plate",
    "Rental car for the trip: white Skoda Octavia estate, plate B-KL <<n>>, pick-up at terminal 2.",
    n=str(R.randint(1000, 9999)),
)
B("licence_plate", "Visitor parking permit registered for AB12 CDE until Sunday; the user's own car is LN19 XKD.")

B(
    "build_trace_ids",
    "Build #<<n>> (id <<u>>) failed at the e2e step; artifact bundle-<<h>>.zip has the screenshots.",
    n=str(R.randint(1000, 9999)),
    u=uid(),
    h=hx(12),
)
B("build_trace_ids", "traceparent: 00-<<t>>-<<s>>-01; the slow span is the second DB call.", t=hx(32), s=hx(16))
B(
    "build_trace_ids",
    "Bazel remote cache key for the failing target: <<k>>; the action digest changes whenever the toolchain does.",
    k=hx(64),
)
B(
    "build_trace_ids",
    "CloudFront invalidation <<i>> completed on distribution E<<d>>.",
    i="I" + rs(25, UPPER_ALNUM),
    d=rs(13, UPPER_ALNUM),
)

# ------------------------------------------------------------------------------------------------ other senses
B("word_sense_prose", "The key insight from the retro: the deploy queue, not the tests, is what makes releases slow.")
B("word_sense_prose", "Boarding pass for the 07:10 flight is in the Wallet app; gate B34 closes at 06:50.")
B("word_sense_prose", "Bought a small plant for Hana as a token of appreciation for covering the on-call weekend.")
B(
    "word_sense_prose",
    "The secret to good bread, per the user's grandmother: a long cold ferment and more salt than you think.",
)
B(
    "word_sense_prose",
    """
    Code review habits the team agreed on:
    - comment on the code, not the person
    - prefix nits with "nit:"
    - approve with suggestions when nothing blocks
""",
)
B(
    "word_sense_prose",
    "Reminder for April: check whether the Stelvio Pass is open before the user's cycling trip (usually late May).",
)
B(
    "word_sense_prose",
    "The piece the user is practising is in the key of E-flat major; the pass code for the music school's practice rooms is handed out at reception.",
)

B(
    "encrypted_value",
    """
    group_vars/prod/vault.yml is encrypted; it starts like this:
    $ANSIBLE_VAULT;1.1;AES256
    <<l1>>
    <<l2>>
    <<l3>>
    The vault password itself is in the team password manager.
""",
    l1=hx(80),
    l2=hx(80),
    l3=hx(80),
)
B(
    "encrypted_value",
    """
    secrets/app.enc.yaml after `sops -e`:
    db_password: ENC[AES256_GCM,data:<<d>>,iv:<<iv>>,tag:<<t>>,type:str]
    sops:
      age:
        - recipient: age1<<r>>
""",
    d=b64(18),
    iv=b64(32),
    t=b64(16),
    r=rs(58, BECH32),
)
B(
    "encrypted_value",
    """
    SealedSecret for the mailer (safe to commit, only the cluster's controller can decrypt it):
    apiVersion: bitnami.com/v1alpha1
    kind: SealedSecret
    metadata:
      name: mailer
    spec:
      encryptedData:
        SMTP_PASSWORD: AgB<<e>>
""",
    e=rs(340, B64CHARS) + "=",
)

B("password_hint_partial", "NAS password = the dog's name + 1987 + '!' (the user's own hint; they'll type it).")
B("password_hint_partial", "Password hint the user set on the old laptop: 'first car + year we moved'.")
B(
    "password_hint_partial",
    "It's the usual family one with the year at the end; the user will type it when the prompt comes up.",
)

B(
    "private_key_header_only",
    "The deploy key file starts with -----BEGIN OPENSSH PRIVATE KEY-----, so it's the new format; `ssh-keygen -p -m PEM -f key` converts it if the old tool needs PEM.",
)
B(
    "private_key_header_only",
    "Error when loading the bundle: 'expected -----BEGIN RSA PRIVATE KEY----- got -----BEGIN PRIVATE KEY-----'. It's PKCS#8; `openssl rsa -in key.pem -out key.rsa.pem` fixes it.",
)

B(
    "db_conn_no_password",
    "Server=sql-prod-01;Database=Payroll;Integrated Security=True;TrustServerCertificate=True (Windows auth, no password in the string).",
)
B("db_conn_no_password", "DATABASE_URL=postgresql:///app_dev?host=/var/run/postgresql uses peer auth over the socket.")
B(
    "db_conn_no_password",
    "RDS IAM auth: `aws rds generate-db-auth-token --hostname analytics.cluster-abc.eu-central-1.rds.amazonaws.com --port 5432 --username app_iam` gives a 15-minute token that is passed as the password at connect time; nothing is stored.",
)
B(
    "db_conn_no_password",
    "Local Mongo: mongodb://localhost:27017/shop (no auth in dev, the container is bound to 127.0.0.1).",
)

# ------------------------------------------------------------------------------------------------ other languages
B(
    "benign_other_language",
    "Ho cambiato la password del Wi-Fi oggi; la nuova è nel gestore password di famiglia, non qui.",
)
B(
    "benign_other_language",
    "A chave reserva do carro fica na gaveta da cozinha. A senha do alarme, quem sabe é a Dona Rosa.",
)
B("benign_other_language", "Wachtwoordbeleid op het werk: minimaal 12 tekens; elke 180 dagen wijzigen is afgeschaft.")
B("benign_other_language", "Zmieniłem hasło do routera, nowe jest w Bitwardenie w folderze 'Dom'.")
B("benign_other_language", "本番DBのパスワードは1Passwordの「本番DB」に保存済み。メモには書かないこと。")
B("benign_other_language", "La clave del éxito, según el entrenador: dormir bien y no saltarse el calentamiento.")
B(
    "benign_other_language",
    "Der Schlüssel für den Keller hängt am Brett im Flur; das WLAN-Passwort steht auf der Rückseite des Routers.",
)

# ------------------------------------------------------------------------------------------------ misc look-alikes
B(
    "analytics_cookie",
    "Consent audit: cookies set before consent were _ga=GA1.1.<<a>>.<<t>>, _gid=GA1.1.<<b>>.<<t>> and lang=pt-BR; the GA ones need to wait for consent.",
    a=digits(10),
    b=digits(10),
    t="1731480000",
)
B("analytics_cookie", "Cookie: cookieconsent_status=dismiss; theme=light; tz=Europe%2FWarsaw")

B("household_no_code", "The gate code for grandma's building changed; Kasia will text it, don't write it down.")
B(
    "household_no_code",
    "Lockbox for the holiday flat is left of the entrance; the host sends the code on the morning of arrival.",
)
B("household_no_code", "Garage door opener battery replaced (CR2032). The keypad outside still works the same.")

B(
    "cloud_resource_ids",
    "arn:aws:iam::<<a>>:role/github-actions-deploy is the role the workflow assumes through OIDC.",
    a=digits(12),
)
B(
    "cloud_resource_ids",
    "GCP project ridgeview-data-<<n>>, bucket gs://ridgeview-raw-events, service account etl-runner@ridgeview-data-<<n>>.iam.gserviceaccount.com (keyless, workload identity).",
    n=digits(6),
)
B(
    "cloud_resource_ids",
    "/subscriptions/<<s>>/resourceGroups/rg-web-prod/providers/Microsoft.Web/sites/ridgeview-api",
    s=uid(),
)

B(
    "expired_one_time_code",
    "The SMS login code was <<c>> but it expired before the user typed it; they requested a new one and got in.",
    c=pin(6),
)
B(
    "expired_one_time_code",
    "Verification code from the bank's email, already used (valid 10 minutes only): <<c>>",
    c=group(pin(6), 3),
)

B(
    "ssh_config_no_secret",
    """
    ~/.ssh/config entry we added:
    Host build-02
        HostName 10.0.8.12
        User deploy
        IdentityFile ~/.ssh/id_ed25519_deploy
        IdentitiesOnly yes
        ProxyJump bastion
""",
)
B(
    "ssh_config_no_secret",
    """
    Host *.corp.ridgeview.example
        ForwardAgent no
        ServerAliveInterval 30
        StrictHostKeyChecking accept-new
""",
)

B(
    "curl_no_credential",
    """curl -s -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/repos/ridgeview/api/actions/runs | jq '.total_count'""",
)
B(
    "curl_no_credential",
    "curl --netrc-file ~/.netrc-artifacts -O https://artifacts.ridgeview.example/releases/app-1.4.0.tgz",
)
B(
    "curl_no_credential",
    "No key needed: http GET https://api.open-meteo.com/v1/forecast latitude==52.52 longitude==13.41 current==temperature_2m",
)

B(
    "k8s_secret_reference",
    """
    ExternalSecret pulling the DB password from AWS Secrets Manager:
    apiVersion: external-secrets.io/v1beta1
    kind: ExternalSecret
    metadata:
      name: db
    spec:
      secretStoreRef: {name: aws-sm, kind: ClusterSecretStore}
      target: {name: db-credentials}
      data:
        - secretKey: password
          remoteRef: {key: prod/db, property: password}
""",
)
B(
    "k8s_secret_reference",
    """
    secret.tmpl.yaml, rendered by envsubst in the deploy job:
    apiVersion: v1
    kind: Secret
    metadata:
      name: api
    stringData:
      DB_PASSWORD: ${DB_PASSWORD}
      STRIPE_KEY: ${STRIPE_KEY}
""",
)

B(
    "markdown_table_no_secret",
    """
    | Service       | Owner   | Where the credential lives          |
    |---------------|---------|-------------------------------------|
    | Prod Postgres | Ana     | Vault: secret/data/prod/pg          |
    | Stripe        | Bongani | 1Password: Finance / Stripe live    |
    | Sentry        | Chen    | SSO, no shared password             |
""",
)
B(
    "markdown_table_no_secret",
    """
    | Account | Login          | 2FA     | Last rotated |
    |---------|----------------|---------|--------------|
    | Bank    | user's email   | app     | 2025-09      |
    | Netflix | family account | none    | -            |
    | GitHub  | mkowal         | YubiKey | 2025-11      |
""",
)

# =============================================================================================== LONG NOTES
# ------------------------------------------------------------------------------------------------ one credential buried
S(
    "long_note_buried",
    """
    Session summary: moving the choir website from Heroku to the VPS (user: Ines)

    What we did
    - Created a new Ubuntu 24.04 VM (2 vCPU, 4 GB), hostname web-choir-01.
    - Installed Python 3.12, nginx, certbot and postgresql-16 from the distro repos.
    - Cloned the repo into /srv/choir, created the venv, pip install -r requirements.txt.
    - Dumped the Heroku Postgres with `heroku pg:backups:capture` and restored it on the VM.
    - Lowered the DNS TTL to 300 first, then pointed the A record at the new box.
    - certbot --nginx -d pinewood-choir.example -d www.pinewood-choir.example went through first try.

    Settings that changed (settings/production.py)
        ALLOWED_HOSTS = ["pinewood-choir.example", "www.pinewood-choir.example"]
        DATABASES["default"]["HOST"] = "/var/run/postgresql"
        STATIC_ROOT = "/srv/choir/static"
        EMAIL_HOST = "smtp.fastmail.com"
        EMAIL_PORT = 465
        EMAIL_USE_SSL = True
        EMAIL_HOST_USER = "webmaster@pinewood-choir.example"
        EMAIL_HOST_PASSWORD = "<<pw>>"
        DEFAULT_FROM_EMAIL = "Pinewood Choir <webmaster@pinewood-choir.example>"

    Problems hit
    - collectstatic failed because STATIC_ROOT wasn't writable by the deploy user; chowned it.
    - gunicorn socket permissions: nginx runs as www-data, added it to the choir group.
    - The rehearsal-calendar page returned 500: a 2021 migration had never run on Heroku (0014_auto).
      Faked it after checking that the column exists.
    - The box was on UTC; set TIME_ZONE = "Europe/Lisbon" to match the old site.

    Still to do
    - Cancel the Heroku dyno after a week without errors.
    - Nightly pg_dump to the storage box (Ines will pick a retention).
    - Move the newsletter signup from the Mailchimp embed to the Django form (low priority).
    - Contact form: sent one test, it arrived in 40 s. Check again next week.

    Preferences noticed
    - Ines prefers short commit messages and wants money matters explained in Portuguese.
    - She doesn't want Docker on this box ("one less thing to break").
""",
    pw=pw("strong"),
)

S(
    "long_note_buried",
    """
    House-sitting notes for Sam (10 to 24 March), from the user's voice memo, tidied up

    Arrival
    - Flight lands Friday 18:40; the spare key is with Mrs. Oduya at number 14.
    - Park on the left side of the drive; the right side floods when it rains.
    - The alarm panel is in the hallway cupboard: type <<code>> then OFF within 30 seconds.
    - If it goes off anyway, the monitoring company calls the landline first.

    Animals
    - Pickle (cat): half a pouch at 7am and 6pm, dry food always topped up.
    - She hides under the guest bed for the first day; don't worry about it.
    - The fish: a pinch of flakes every second day, not more. The tank light is on a timer.
    - Pickle's vet is Riverside Vets, 01632 960 422; the insurance card is in the kitchen drawer.

    House
    - Heating runs 6-9 and 17-22. The thermostat app is on the iPad; set it to "Away" for day trips.
    - Bins: black on Tuesday, green on alternate Thursdays (the 14th is green). Out the night before.
    - The dishwasher door needs lifting slightly to latch.
    - Washing machine: 40 degrees cotton for everything; the dryer is broken, use the rack.
    - Don't open the bathroom skylight, the latch sticks.
    - Water the fern and the lemon tree on Sundays; the cacti get nothing.

    Neighbours and contacts
    - Mrs. Oduya (no. 14) has a spare key and knows about the cat.
    - Plumber we trust: Dave, 07700 900 318.
    - The electricity meter is under the stairs; the fuse box is in the garage.

    Internet and TV
    - Wi-Fi network "Hollis-Home"; the card with the key is stuck to the router.
    - The small black remote is for Netflix; use the "Guest" profile.

    Leaving
    - Strip the guest bed, towels in the basket.
    - Set the alarm on the way out and drop the key through Mrs. Oduya's letterbox.
    - Text the user when you leave; they land Sunday 24th at 21:15.
""",
    code="-".join(pin(4)),
)

S(
    "long_note_buried",
    """
    Homelab stack as of today (docker-compose.yml on the NUC), saved so the next session knows what runs where:

    services:
      traefik:
        image: traefik:v3.1
        command:
          - --providers.docker=true
          - --entrypoints.web.address=:80
          - --entrypoints.websecure.address=:443
          - --certificatesresolvers.le.acme.dnschallenge.provider=cloudflare
          - --certificatesresolvers.le.acme.email=ops@halden-home.example
        environment:
          - CF_DNS_API_TOKEN=<<cf>>
        ports: ["80:80", "443:443"]
        volumes:
          - /var/run/docker.sock:/var/run/docker.sock:ro
          - ./letsencrypt:/letsencrypt
      jellyfin:
        image: jellyfin/jellyfin:10.9.11
        volumes:
          - /mnt/media:/media:ro
          - ./jellyfin/config:/config
        labels:
          - traefik.http.routers.jf.rule=Host(`tv.halden-home.example`)
          - traefik.http.routers.jf.tls.certresolver=le
      uptime-kuma:
        image: louislam/uptime-kuma:1
        volumes: ["./kuma:/app/data"]
        labels:
          - traefik.http.routers.kuma.rule=Host(`status.halden-home.example`)
      paperless:
        image: ghcr.io/paperless-ngx/paperless-ngx:2.13
        environment:
          PAPERLESS_URL: https://docs.halden-home.example
          PAPERLESS_TIME_ZONE: Europe/Oslo
          PAPERLESS_OCR_LANGUAGE: nor+eng
        volumes:
          - ./paperless/data:/usr/src/paperless/data
          - /mnt/scans:/usr/src/paperless/consume

    Jellyfin hardware transcoding is still off (the NUC's iGPU isn't passed through yet).
""",
    cf=rs(40, URLSAFE),
)

S(
    "long_note_buried",
    r"""
    Incident notes: checkout latency, 2025-11-19 (written during the call, cleaned up after)

    14:02 PagerDuty alert: p95 checkout latency > 2 s for 5 min (service: cart-api).
    14:04 Joined the bridge. On call: Priya (primary), Tom (secondary); I take notes for the user.
    14:06 Grafana: latency climbs from 13:55, error rate flat. DB CPU 35 %, fine.
    14:09 Priya suspects the new pricing sidecar (deployed 13:50, commit <<sha>>).
    14:11 Trace <<trace>> shows 1.8 s inside pricing.quote().
    14:13 Tom checks the pricing provider's status page: "degraded performance in eu-west".
    14:15 Decided not to roll back yet; enabling the cached-quote fallback instead.
    14:17 The flag service UI was slow, so Priya flipped it with the admin API:
          curl -X PATCH https://flags.internal.shopfront.example/api/v1/flags/pricing-cache-fallback \
            -H "Authorization: Bearer <<tok>>" \
            -H "Content-Type: application/json" -d '{"enabled": true}'
    14:19 Latency back under 600 ms within two minutes.
    14:25 Provider confirms an incident on their side, no ETA.
    14:40 Stable on fallback. Risk: quotes up to 15 min old. Product OK'd it for today.
    15:10 Provider resolved. Flag left on until tomorrow morning to be safe.
    15:12 Bridge closed.

    Follow-ups
    - [ ] Alert on pricing.quote() duration directly, not just checkout p95 (Tom).
    - [ ] Put the fallback flag in the runbook with the UI path, not the API (Priya).
    - [ ] Ask the provider for a status webhook instead of polling their page.
    - [ ] Postmortem draft by Friday; blameless, 30 min review slot booked.
    - [ ] Check whether any cached quote was older than 15 min (audit table).

    Numbers for the postmortem
    - Customer-facing impact: 14:00 to 14:19, about 19 minutes of slow checkout.
    - Orders during the window: 1,284 (a normal Tuesday: ~1,350), so ~5 % fewer.
    - No errors returned; every request eventually completed.
    - Two slow example requests: req_<<r1>>, req_<<r2>>

    Context for next time
    - The flag admin API is reachable from the VPN only.
    - Priya owns the pricing sidecar; Tom owns cart-api.
""",
    sha=hx(7),
    trace=hx(32),
    tok=rs(48, URLSAFE),
    r1=ulid(),
    r2=ulid(),
)

S(
    "long_note_buried",
    """
    Onboarding notes for contractors on Project Larch (the user asked me to keep these current)

    Week 1
    1. Laptop: request it through the IT form; macOS only, FileVault on before anything else.
    2. Accounts: Google Workspace, Slack (#larch, #larch-alerts), GitHub org "larch-health", Linear team LAR.
    3. Read the architecture doc in Notion ("Larch: how it fits together"), then ADRs 001 to 014.
    4. Clone larch-web and larch-api; `make bootstrap` sets up Python 3.12 and Node 20 via mise.
    5. Local DB: `make db-up` starts Postgres 16 in Docker with seed data (fake patients only).
    6. First PR: any Linear issue labelled "good first issue".

    Environments
    - local: http://localhost:3000, seed users in fixtures/users.json (all fake).
    - staging: https://staging.larch-health.example, shared QA login qa-shared@larch-health.example / <<pw>>
      (the only way in until contractor SSO is done; use it for clicking through, nothing else).
    - prod: no contractor access. Ever.

    Conventions
    - Branch names: LAR-123-short-description.
    - Commits in the imperative mood, referencing the Linear issue.
    - PRs need one review from the core team; CI must be green (lint, unit, e2e on staging).
    - No patient data in screenshots, tickets or Slack; use the seed data.
    - Feature flags default to off; name them larch_<area>_<thing>.

    People
    - Ana (tech lead): architecture, reviews anything touching auth.
    - Bongani (product): priorities; talk to him before starting anything that isn't in Linear.
    - Chen (QA): staging data resets happen Mondays 08:00 UTC.

    Meetings
    - Standup 09:30 CET, 15 min, camera optional.
    - Demo every second Thursday.
    - Retro on the last Friday of the month.

    Tools
    - Figma for designs (view access by default).
    - Sentry project larch-web for front-end errors.
    - Grafana dashboards under the "Larch" folder.
""",
    pw=pw("human"),
)

S(
    "long_note_buried",
    """
    Manifests for the ledger-sync worker as deployed to staging (kubectl get -o yaml, cleaned up):

    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: ledger-sync
      namespace: finance-staging
      labels: {app: ledger-sync, team: finance-platform}
    spec:
      replicas: 2
      selector:
        matchLabels: {app: ledger-sync}
      template:
        metadata:
          labels: {app: ledger-sync}
        spec:
          containers:
            - name: worker
              image: registry.finplat.example/ledger-sync@sha256:<<dig>>
              envFrom:
                - secretRef: {name: ledger-sync-env}
              resources:
                requests: {cpu: 100m, memory: 256Mi}
                limits: {memory: 512Mi}
              readinessProbe:
                httpGet: {path: /healthz, port: 8080}
    ---
    apiVersion: v1
    kind: Secret
    metadata:
      name: ledger-sync-env
      namespace: finance-staging
    type: Opaque
    data:
      LEDGER_API_URL: <<url>>
      LEDGER_API_KEY: <<key>>
      LOG_LEVEL: <<lvl>>
    ---
    apiVersion: v1
    kind: Service
    metadata:
      name: ledger-sync
      namespace: finance-staging
    spec:
      selector: {app: ledger-sync}
      ports:
        - port: 80
          targetPort: 8080
""",
    dig=hx(64),
    url=b64s("https://ledger.staging.finplat.example/api"),
    key=b64s("lk_" + rs(40)),
    lvl=b64s("info"),
)

# ------------------------------------------------------------------------------------------------ long, nothing to hide
B(
    "long_note_benign",
    """
    Session summary: CI rework for the atlas-cli repo (user: Jonas)

    Goal: cut CI from ~14 min to under 6 and make releases reproducible.

    Done
    - Split the single workflow into lint.yml, test.yml and release.yml.
    - test.yml runs a matrix (ubuntu-latest, macos-14) x (3.11, 3.12, 3.13) with uv; the cache key
      is hashFiles('uv.lock'). Cold run 5m40s, warm 2m10s.
    - Pinned every third-party action to a full commit SHA instead of a tag:
        actions/checkout@<<a>>  # v4.2.2
        astral-sh/setup-uv@<<b>>  # v5
        softprops/action-gh-release@<<c>>  # v2
    - release.yml publishes to PyPI with trusted publishing (OIDC), so no token is stored anywhere:
        permissions:
          id-token: write
          contents: write
    - The Docker image is pushed to ghcr.io with the built-in token:
        - uses: docker/login-action@<<d>>
          with:
            registry: ghcr.io
            username: ${{ github.actor }}
            password: ${{ secrets.GITHUB_TOKEN }}
    - Codecov upload uses ${{ secrets.CODECOV_TOKEN }} (Jonas added it in the repo settings himself).
    - Base image pinned by digest: python:3.12-slim@sha256:<<dig>>

    Measurements (5 runs each, warm cache)
    - lint: 38 s median
    - test: 2m10s median, slowest cell macos-14 / 3.13 at 2m55s
    - release (dry run): 3m05s

    Open questions
    - Jonas wonders whether to drop macOS from PR runs and keep it nightly only.
    - test_progress_bar_tty fails about 1 in 40 on macOS; quarantined with a marker for now.
    - Should tags be signed? He has a GPG key, but not on this laptop.

    Next session
    - Write the CONTRIBUTING section on running `uv run pytest -n auto` locally.
    - Look at the 1.3 GB cache on the macOS runners.
""",
    a=hx(40),
    b=hx(40),
    c=hx(40),
    d=hx(40),
    dig=hx(64),
)

B(
    "long_note_benign",
    """
    Lisbon + Porto trip, 3 to 11 May: everything in one place (from the user's emails)

    Flights
    - Out: TP 663, AMS to LIS, Sat 3 May, dep 06:35, arr 08:55. Booking reference <<pnr1>>.
    - Seats 14A/14B. Boarding passes are in the Wallet app; the gate closes 20 min before departure.
    - Back: TP 668, OPO to AMS, Sun 11 May, dep 17:20. Booking reference <<pnr2>>.

    Hotels
    - Lisbon, 3 to 7 May: Casa do Largo, Alfama. Confirmation no. <<conf>>. Check-in from 15:00; they hold bags.
    - Porto, 7 to 11 May: Ribeira apartment, host Rui. Self check-in; the lockbox instructions arrive 24 h before.

    Trains
    - Lisbon Santa Apolonia to Porto Campanha, Wed 7 May 10:39, Alfa Pendular, coach 4, seats 61/62.
    - Ticket no. <<tkt>> (PDF in the trip folder).

    Booked
    - Sintra day trip Mon 5 May: Pena Palace timed entry 10:00, 2 tickets, order <<ord>>.
    - Livraria Lello Fri 9 May 11:30 (the voucher is deducted from a book).
    - Dinner Sat 10 May 20:30, table for 2 under the user's surname.

    Money
    - Use the green card (no FX fees). Cash: about EUR 100 for small places.
    - Travel insurance policy <<pol>>; emergency line +44 20 7946 0321.

    To pack / remember
    - Adapters (type F), comfortable shoes for the hills, a light rain jacket.
    - Passport expires 2031, fine.
    - Download offline maps for both cities.
    - Check in online for the flight back; that boarding pass arrives 24 h before.
    - Book the Porto airport transfer on the day (ride apps work there).

    Preferences
    - Window seats; no hostels; dinner after 20:00.
    - Dislikes tours with more than ~15 people.
""",
    pnr1=rs(6, UPPER_ALNUM),
    pnr2=rs(6, UPPER_ALNUM),
    conf=digits(10),
    tkt=digits(13),
    ord=digits(9),
    pol="TRV-" + digits(8),
)

B(
    "long_note_benign",
    """
    Postmortem: "leaked" token in a public build log (2025-10-02), summary for the user's records

    Summary
    A CI job printed what looked like an API token into the public build log of the docs site. It was a
    content hash, not a credential, but we rotated the docs deploy key anyway as a precaution.

    Timeline (UTC)
    - 09:12 An external reporter emails security@ about "a key in your build log", linking build <<bid>>.
    - 09:20 On-call (Marek) confirms the log line: `asset manifest: app.<<hash>>.js`.
    - 09:31 Marek and Lena agree it is the webpack content hash of the bundle (matches the dist/ filename).
    - 09:40 Precaution: docs bucket deploy key rotated; the old key disabled, the new one only in the CI secret store.
    - 09:55 Replied to the reporter with thanks; classified as not a vulnerability.
    - 10:30 Log retention for public builds reduced from 90 to 30 days.

    What went well
    - The reporter found the right address within minutes (security.txt works).
    - Rotation took 9 minutes end to end following the runbook.

    What went badly
    - Nobody knew at first whether the string was a secret; we don't document what our log lines contain.
    - Build logs of public repos are visible to anyone; nobody had thought about that for the docs site.

    Action items
    1. Add a "what's in the log" section to the CI docs (owner: Lena, due 2025-10-16).
    2. Mask anything matching our token prefixes in CI output (owner: Marek).
    3. Review which jobs in public repos print environment details (owner: Lena).
    4. Add the security@ reply template to the wiki (owner: the user).

    Reference ids
    - Build: <<bid>>
    - Commit that introduced the log line: <<sha>>
    - Trace of the rotation job: <<trace>>
    - Ticket: SEC-<<tnum>>

    Lessons
    - "Looks random" is not the same as secret: check the format first, rotate second.
    - Content hashes in filenames are public by design: anyone loading the site sees them.
""",
    bid=uid(),
    hash=hx(20),
    sha=hx(40),
    trace=hx(32),
    tnum=str(R.randint(100, 999)),
)

B(
    "long_note_benign",
    """
    Current nginx config for the shop front (sites-available/shop.conf), saved before the upgrade:

    upstream shop_app {
        server 127.0.0.1:8000;
        keepalive 32;
    }

    server {
        listen 80;
        server_name shop.fernwood.example www.shop.fernwood.example;
        return 301 https://$host$request_uri;
    }

    server {
        listen 443 ssl http2;
        server_name shop.fernwood.example;

        ssl_certificate     /etc/letsencrypt/live/shop.fernwood.example/fullchain.pem;
        ssl_certificate_key /etc/letsencrypt/live/shop.fernwood.example/privkey.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;

        add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;
        add_header X-Content-Type-Options nosniff;
        client_max_body_size 20m;

        location /static/ {
            alias /srv/shop/static/;
            expires 30d;
            add_header Cache-Control "public, immutable";
        }

        location /admin/ {
            auth_basic "Staff only";
            auth_basic_user_file /etc/nginx/.htpasswd-shop;
            proxy_pass http://shop_app;
        }

        location / {
            proxy_pass http://shop_app;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }
    }

    privkey.pem is referenced by path only; .htpasswd-shop holds bcrypt hashes for 2 users.
""",
)

B(
    "long_note_benign",
    """
    Notes for the babysitter (Saturday 19:00 to 23:30), as the user dictated them

    Kids
    - Maya (7): bed at 20:00, one story, night light on.
    - Maya is allergic to peanuts. The EpiPen is in the red pouch on the fridge.
    - Leo (4): bed at 19:30, needs the blue rabbit.
    - Leo might wake around 22:00; a glass of water usually does it.
    - No screens after 19:00 for Leo; Maya can watch one episode before bed.

    Food
    - Pasta and sauce in the fridge, 3 minutes in the microwave.
    - Snacks: fruit, crackers, the yoghurts on the top shelf. No sweets after dinner.
    - Help yourself to anything; tea and coffee are above the kettle.

    House
    - The front door locks by itself when it closes; take the spare key from the hook if you step out.
    - The alarm won't be set while you're here. If you need its code for some reason, text the user;
      it isn't written down anywhere on purpose.
    - Wi-Fi network "Birchwood-Guest"; the password is on the card by the router.
    - TV: the Netflix "Kids" profile only, please.
    - The heating is on a timer; the thermostat in the hall can go up a notch if it's cold.

    Emergency
    - The user: 07700 900 761; the other parent: 07700 900 762.
    - Neighbour with a key: Mrs. Petrov, flat 3.
    - Non-urgent medical advice: 111. Emergency: 999.
    - The first-aid kit is under the bathroom sink.

    Bedtime routine (both)
    - Teeth, pyjamas, toilet, story, lights.
    - Leave the landing light on and the doors ajar.

    Payment
    - The user pays by bank transfer the next morning; same rate as last time.
    - Taxi home is on the user: order one around 23:15 and keep the receipt.
""",
)

B(
    "long_note_benign",
    """
    Terraform for the analytics stack (modules/analytics/main.tf), explained for the user

    variable "db_password" {
      description = "Master password for the analytics cluster. Supplied by TF_VAR_db_password from CI."
      type        = string
      sensitive   = true
    }

    variable "allowed_cidrs" {
      type    = list(string)
      default = ["10.40.0.0/16"]
    }

    resource "aws_rds_cluster" "analytics" {
      cluster_identifier      = "analytics-prod"
      engine                  = "aurora-postgresql"
      engine_version          = "16.4"
      master_username         = "analytics_admin"
      master_password         = var.db_password
      backup_retention_period = 14
      storage_encrypted       = true
      kms_key_id              = "arn:aws:kms:eu-central-1:<<acct>>:key/<<kms>>"
    }

    data "sops_file" "app" {
      source_file = "secrets/app.enc.yaml"
    }

    resource "aws_ssm_parameter" "api_key" {
      name  = "/analytics/api_key"
      type  = "SecureString"
      value = data.sops_file.app.data["api_key"]
    }

    Notes
    - secrets/app.enc.yaml is sops-encrypted to the team's age recipients; decrypting it needs one of the
      age private keys, which are not in the repo.
    - The plan shows 3 to add, 0 to change. The user wants to apply on Monday with Sam watching.
    - The KMS key ARN is an identifier, not a secret.
""",
    acct=digits(12),
    kms=uid(),
)


# =============================================================================================== OUTPUT
SPLIT_RULE = (
    "split is dev iff int(hashlib.sha256(id.encode()).hexdigest(), 16) % 2 == 0, else heldout; "
    "ids are numbered s3-NNN-<kind> after a seeded shuffle; the rule was fixed before any measurement"
)


def split_of(note_id):
    return "dev" if int(hashlib.sha256(note_id.encode()).hexdigest(), 16) % 2 == 0 else "heldout"


def build():
    order = list(range(len(NOTES)))
    random.Random(SHUFFLE_SEED).shuffle(order)
    rows = []
    for n, idx in enumerate(order, 1):
        label, kind, text = NOTES[idx]
        note_id = f"s3-{n:03d}-{kind}"
        rows.append({"id": note_id, "label": label, "kind": kind, "text": text, "split": split_of(note_id)})
    return rows


def check(rows):
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({r["text"] for r in rows}) == len(rows), "duplicate text"
    for r in rows:
        assert not MARK.search(r["text"]), r["id"]
        assert r["text"] == r["text"].strip() and r["text"], r["id"]
        if r["kind"].startswith("long_note"):
            assert r["text"].count("\n") + 1 >= 30, (r["id"], r["text"].count("\n") + 1)
    kinds = {}
    for r in rows:
        kinds.setdefault(r["kind"], set()).add(r["label"])
    assert all(len(v) == 1 for v in kinds.values()), "a kind with both labels"


def stats(rows):
    labels = ("secret", "benign")
    c = Counter((r["label"], r["split"]) for r in rows)
    out = ["| label | dev | heldout | total |", "|---|---:|---:|---:|"]
    for lab in labels:
        out.append(f"| {lab} | {c[lab, 'dev']} | {c[lab, 'heldout']} | {c[lab, 'dev'] + c[lab, 'heldout']} |")
    out.append(f"| total | {sum(c[x, 'dev'] for x in labels)} | {sum(c[x, 'heldout'] for x in labels)} | {len(rows)} |")
    kc = Counter((r["label"], r["kind"], r["split"]) for r in rows)
    kinds = sorted({(r["label"], r["kind"]) for r in rows})
    one_half = sorted(k for lab, k in kinds if not (kc[lab, k, "dev"] and kc[lab, k, "heldout"]))
    out += ["", f"kinds: {len(kinds)}; in one half only ({len(one_half)}): " + ", ".join(f"`{k}`" for k in one_half)]
    for lab in labels:
        ks = [k for x, k in kinds if x == lab]
        out += [
            "",
            f"{lab.capitalize()} ({len(ks)} kinds):",
            "",
            "| kind | total | dev | heldout |",
            "|---|---:|---:|---:|",
        ]
        for k in ks:
            d, h = kc[lab, k, "dev"], kc[lab, k, "heldout"]
            out.append(f"| `{k}` | {d + h} | {d} | {h} |")
    lengths = Counter(
        "one line"
        if r["text"].count("\n") == 0
        else "2-10 lines"
        if r["text"].count("\n") < 10
        else "11-29 lines"
        if r["text"].count("\n") < 29
        else "30+ lines"
        for r in rows
    )
    out += [
        "",
        "lengths: " + ", ".join(f"{k} {lengths[k]}" for k in ("one line", "2-10 lines", "11-29 lines", "30+ lines")),
    ]
    return "\n".join(out)


def main():
    rows = build()
    check(rows)
    n_secret = sum(r["label"] == "secret" for r in rows)
    about = {
        "_about": (
            "Third secret-notes set: memory notes written the way agents write them, each labelled secret "
            "(holds a usable credential, so capture must refuse it) or benign (no usable credential, so "
            "capture must store it). Labelling rules and counts: secret_notes_third.md. "
            "Generated by make_secret_notes_third.py; no value is a real credential."
        ),
        "split_rule": SPLIT_RULE,
        "heldout_rule": "the heldout half is never read when writing or tuning detector rules",
        "notes": len(rows),
        "secret": n_secret,
        "benign": len(rows) - n_secret,
    }
    with OUT.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(json.dumps(about, ensure_ascii=False) + "\n")
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    if "--stats" in sys.argv[1:]:
        print(stats(rows))
    else:
        print(f"wrote {OUT.name}: {len(rows)} notes ({n_secret} secret, {len(rows) - n_secret} benign)")


if __name__ == "__main__":
    main()
