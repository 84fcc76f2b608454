"""Classes of credential read since the third set of agent notes, and values that are no credential (docs/decisions.md,
2026-12-05, "Secret detection: the third set of agent notes"). Every sentence here is written for the test, none
copied from a set; each test ends with its near misses, which must stay stored."""

from __future__ import annotations

import base64

import pytest

from memkeeper.core.secrets import find_secrets, redact_secrets, scan


def _found(text: str) -> list[tuple[str, str]]:
    return [(text[f.start : f.end], f.secret_class) for f in scan(text)]


def _redacts(text: str, secret: str) -> None:
    redacted, classes = redact_secrets(text)
    assert secret not in redacted and classes, redacted


def _none(*texts: str) -> None:
    assert [t for t in texts if find_secrets(t)] == []


@pytest.mark.parametrize(
    "text, secret",
    [
        # The prepositions and the "is" of the other languages a password is named in.
        ("Hasło do skrzynki pocztowej: Brzoza!2024", "Brzoza!2024"),
        ("hasło dla drukarki na piętrze = Sowa7Kruk", "Sowa7Kruk"),
        ("heslo pro server v garáži: Lipa-77x", "Lipa-77x"),
        ("password della stampante: Gufo#481", "Gufo#481"),
        ("senha da conta do banco: Pato9!Lagoa", "Pato9!Lagoa"),
        ("Hasło jest Dzik9!Las", "Dzik9!Las"),
    ],
)
def test_a_password_named_in_another_language_with_what_it_is_for(text, secret):
    assert _found(text) == [(secret, "password_assignment")]
    _redacts(text, secret)
    _none(
        "Hasło do banku: w menedżerze haseł.",
        "Heslo pro wifi: na lednici.",
        "La password della mail è nel gestore.",
        "Hasło jest długie i bezpieczne.",
        "Zmieniłam hasło do poczty, nowe jest w sejfie.",
    )


@pytest.mark.parametrize(
    "text, secret",
    [
        # "pw" with what it is for before the sign, as a password's name.
        ("Shop pw for the back office: Cobalt-Fern-82", "Cobalt-Fern-82"),
        # "pass" as the name of a password, in a login given as a pair.
        ("the kiosk: user admin, pass Qw9!lake", "Qw9!lake"),
        ("login: kiosk / pass: Tr4mline!x", "Tr4mline!x"),
        # An account's address, a slash, and its password.
        ("Library portal: maria.s@mail.example / Lighthouse#72", "Lighthouse#72"),
    ],
)
def test_a_password_in_a_login_given_as_a_pair(text, secret):
    assert (secret, "password_assignment") in _found(text)
    _redacts(text, secret)
    _none(
        "pw for the page: 1920px",
        "PW for the suite: see the runbook",
        "the user needs a day pass for the gym",
        "allow user to pass execution_async_id",
        "user jo, pass the salt",
        "ops@example.com / #ops-alerts",
        "alice@example.com / bob@example.com are the owners",
        "billing@acme.example / Acme Finance Team",
        "https://ana@host.example/Reports2024",
    )


@pytest.mark.parametrize(
    "text, secret, secret_class",
    [
        # A client's password flag after another flag of the same letter (redis-cli's "-p" is its port).
        ("redis-cli -h queue.internal -p 6390 -a Wq7vLr2pXz --stat", "Wq7vLr2pXz", "password_assignment"),
        # A command-line flag named as a token or a secret, its value after a space.
        ("hookctl register --webhook-secret Fk29QmX7tLp4Wz8Rn3Vb", "Fk29QmX7tLp4Wz8Rn3Vb", "secret_assignment"),
        ("run it with --api-key 8f3KqL2mXv9pR4tW7zN1 against staging", "8f3KqL2mXv9pR4tW7zN1", "secret_assignment"),
        # OpenSSL's pass phrase argument in the clear.
        (
            "openssl enc -aes-256-cbc -pass pass:R1verStone88 -in a.tar -out a.enc",
            "R1verStone88",
            "password_assignment",
        ),
        ("openssl pkcs12 -in b.p12 -passin 'pass:Moth&Lamp19' -nodes", "Moth&Lamp19", "password_assignment"),
        # Oracle's connect strings.
        ("SQL> CONNECT scott/Tiger2024@orcl", "Tiger2024", "url_password"),
        ("rman target sys/Orca7Lake@prod", "Orca7Lake", "url_password"),
        ("url: jdbc:oracle:thin:billing/Qz8wLm4v@//db7:1521/BILL", "Qz8wLm4v", "url_password"),
        # A Netlify personal access token.
        (
            "NETLIFY token nfp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
            "nfp_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
            "netlify_token",
        ),
    ],
)
def test_credentials_given_on_a_command_line(text, secret, secret_class):
    assert (secret, secret_class) in _found(text)
    _redacts(text, secret)
    _none(
        "redis-cli -h queue.internal -p 6390 --stat",
        "docker build --secret id=npmrc,src=$HOME/.npmrc .",
        "vercel --token $VERCEL_TOKEN deploy",
        "gpg --recv-key 3AA5C34371567BD2 --keyserver keys.openpgp.org",
        "restic --secret my-backup-secret-name-2 init",
        "terraform apply --auth-mode managed-identity-v2",
        "openssl rsa -in k.pem -passin env:KEY_PASS -out plain.pem",
        "openssl pkcs12 -export -passout file:/run/pw.txt -out b.p12",
        "openssl req -new -passin pass:changeit",
        "sqlplus / as sysdba",
        "sqlplus hr_app@//oradb01:1521/ORCLPDB1",
        "sqlplus hr/${HR_PASSWORD}@//db:1521/X",
    )


@pytest.mark.parametrize(
    "text, secret, secret_class",
    [
        # An ODBC connection string quotes a value in braces (";" and "}}" inside it).
        ("Driver={PostgreSQL};Server=db;Uid=app;Pwd={Gh7;q}}Lm2};Port=5432", "Gh7;q}}Lm2", "password_assignment"),
        # A key that is the secret by name, assigned in configuration.
        ('{"Crypto": {"EncryptionKey": "Vb7qK2mX9pR4tW8zN3cL6jH1"}}', "Vb7qK2mX9pR4tW8zN3cL6jH1", "secret_assignment"),
        ("HMAC_KEY=qL5vT8nW2xR7mK4p", "qL5vT8nW2xR7mK4p", "secret_assignment"),
        ("jwt_signing_key: Zt5!pQ9wLm2x", "Zt5!pQ9wLm2x", "secret_assignment"),
        # A Wi-Fi network's QR code as text.
        ("the sticker's QR says WIFI:S:Barn;T:WPA;P:hayloft-cider-77;;", "hayloft-cider-77", "password_assignment"),
    ],
)
def test_configuration_syntaxes(text, secret, secret_class):
    assert (secret, secret_class) in _found(text)
    _redacts(text, secret)
    _none(
        'conn = f"Server={host};Uid={user};Pwd={password};"',
        "Driver={ODBC Driver 18};Server=db;Pwd={DB_PASSWORD};Encrypt=yes",
        'print(f"password={password!r}")',
        "encryption_key: AES-256-GCM",
        '"encryptionKey": "aes256gcm"',
        "SIGNING_KEY=${SIGNING_KEY}",
        "license_key_path=/etc/app/license.key",
        "signing_key = load_key(path)",
        "wifi_psk: WPA2-PSK",
        "WIFI:T:nopass;S:Cafe-Guest;;",
        "WIFI:S:Home;T:WPA;P:<password>;;",
    )


def _b64(value: str) -> str:
    return base64.b64encode(value.encode()).decode()


def test_a_kubernetes_secrets_data():
    token = _b64("Zr81kQm0xPw4Lb7Tn2Vc9HdY")
    config = _b64('{"auths":{"registry.example.io":{"auth":"' + _b64("bot:Fennel-Quartz-31") + '"}}}')
    text = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: relay\ntype: Opaque\ndata:\n"
        f"  relay-token: {token}\n  .dockerconfigjson: {config}\n"
    )
    assert _found(text) == [(token, "secret_assignment"), (config, "secret_assignment")]
    _redacts(text, token)
    _none(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: banner\ndata:\n  motd: {_b64('Welcome to the lab')}\n",
        "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n"
        "    relay: AgBy8hCi8oL7Xw3QfZ2k9mN4pR6sT1uV\n",
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n  labels:\n    tier: {_b64('backend')}\n",
        "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nspec:\n  data:\n"
        "    - secretKey: relay-token\n      remoteRef: {key: prod/relay}\n",
    )


def test_a_markdown_tables_column_of_passwords_or_tokens():
    text = (
        "| Host | Login | Pass |\n|---|---|---|\n| vpn | ana | Kq8!vRt2 |\n| nas | admin | `Wren-Lake-58` |\n\n"
        "| App | Token |\n|:--|:--|\n| ci | Zr81kQm0xPw4Lb7Tn2Vc9HdY |\n"
    )
    assert [s for s, _ in _found(text)] == ["Kq8!vRt2", "Wren-Lake-58", "Zr81kQm0xPw4Lb7Tn2Vc9HdY"]
    _redacts(text, "Wren-Lake-58")
    _none(
        "| Service | Password |\n|---|---|\n| NAS | in 1Password |\n| Router | see the sticker |",
        "| Service | Password |\n|---|---|\n| NAS | 1Password |\n| Router | Bitwarden |",
        "| Key | Action |\n|-----|--------|\n| Ctrl+S | save |\n| Alt+F4 | quit |",
        "| Token | Meaning |\n|---|---|\n| IDENT_2 | a name |\n| NUM_10 | a number |",
        "| Password hint | Owner |\n|---|---|\n| first car + year 2 | mum |",
        "| User | Password |\n|---|---|\n| admin | ******** |\n| ops | `${OPS_PASSWORD}` |",
    )


def test_a_password_dictated_one_character_at_a_time():
    text = "Read back over the phone as: lowercase k, capital T, four, dash, z, z, nine."
    assert _found(text) == [("lowercase k, capital T, four, dash, z, z, nine", "password_assignment")]
    _none(
        "The capital A, B, C, D, E and F blocks are on the left",
        "Use a capital letter, a lowercase letter, a digit, a dash and a dot in the name",
        "Spell it in capitals: A, B, C, D, E, F.",
        "lower case a, then b, then c, then d, then e, then f",
    )


# --- values that are no credential -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # The key pair AWS's documentation shows in every example.
        "IAM docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        # jwt.io's sample token.
        "Paste this into the debugger: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG"
        "4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        # The Azure storage emulator's account key, the same on every machine.
        "Azurite: DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEt"
        "lCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/",
    ],
)
def test_values_vendors_publish_as_examples_are_no_secret(text):
    assert find_secrets(text) == []
    # (a made-up key beside one is still found)
    assert find_secrets(f"{text}; prod uses AKIAJ7QX2MPL4VWZ9R3T") == ["aws_access_key"]


@pytest.mark.parametrize(
    "text",
    [
        "openssl said: expected '-----BEGIN EC PRIVATE KEY-----' and found none; the file is PKCS#12.",
        "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
        "The header line BEGIN OPENSSH PRIVATE KEY marks the new format.",
    ],
)
def test_a_private_keys_header_without_key_material_is_no_key(text):
    assert find_secrets(text) == []
    key = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB7tq2Xz9Lk4Pw8Vn3Rm6Yc1Hd0Fs5Gj\n-----END EC PRIVATE KEY-----"
    assert find_secrets(f"{text}\n{key}") == ["private_key"]


def test_a_firebase_web_configs_api_key_is_public():
    key = "AIzaSyB7kQ2mX9pR4tW8zN3cL6jH1vF5gD0sA2e"
    config = f'const firebaseConfig = {{\n  apiKey: "{key}",\n  authDomain: "garden-log.firebaseapp.com",\n}};'
    assert find_secrets(config) == []
    assert find_secrets(f"Maps server key for the geocoder: {key}") != []
