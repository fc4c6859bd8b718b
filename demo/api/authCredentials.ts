// Credentials the demo API accepts, shared by its auth routes, the demo manifests and the tests so
// they always agree. These are demo values only: the RSA key pair is public on purpose.

/** Every credential the demo's authenticated routes accept. */
export const DEMO_CREDENTIALS = {
  basic: { username: 'demo-user', password: 'demo-pass' },
  bearer: { token: 'demo-bearer-token' },
  /** One key for all four API-key placements: header X-API-Key, query api_key, form field api_key, JSON field auth.api_key. */
  apiKey: { key: 'demo-api-key', header: 'X-API-Key', queryParam: 'api_key', formField: 'api_key', jsonPath: ['auth', 'api_key'] },
  jwt: { hs256Secret: 'demo-jwt-secret', issuer: 'demo-issuer', audience: 'demo-api' },
  oauth: {
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    /** The first refresh token; each refresh_token grant consumes it and returns the next one. */
    initialRefreshToken: 'demo-refresh-0',
    accessTokenSeconds: 3600,
  },
  session: { username: 'demo-user', password: 'demo-pass', header: 'X-Session-Token', tokenSeconds: 60 },
};

/** RS256 private key the demo manifests sign with (PKCS#8 PEM). */
export const DEMO_RSA_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDc3pDfPAoR3vfd
KGjXerWTniVk+eKM+ofdD4i2b8dLz79O5izxvfIn8br6Fyjh84tzT6spXu8Joj++
QF4xk3wKu9/lE0x0uGGuMHC5sVHEKy3yYSSVqqDp5UvIEmDvodlB+HE929Xw3raR
6Os9szZ62leXIU6BTJGksbEUJdJT7myMylPdr0mOONnrHpeWbUPfUBrkK9W+ElCf
8TZ60WJspCBzI2G64vKtW0Nczcp8ZkIc+sIkGujSoxctY1vwvQwEg3x2WuKd8Fgl
PEN0/BC9h5hlWJnJpcal49mT9NNW/6tobSDbdub8PyKoIa1RY8b6Zh9QtFkVU9++
+6xV03fZAgMBAAECggEAQatE/LKPteeK360bmvGnmhfbu22Wn97/VUlAlymd4lsG
4PEL7OZSYPD87E3FgITWcfb+h4Lr5HviovDlcK0OpOxeMfBue4e0t0M8yOFBU+eY
tieO5pcAV/qucPKR8r226GfzV3aM4hx9wN01UDeAG7/eahdjjYsUBJk2cqyaIAzG
gdymrou7JxrS9ieV/41SA7c5BrILffQXTdTSSHQ34wTmZ/oCEvg3AlAXcXxHFVg6
KyDX+MZgyZmcagafWaeaUYtdk/YCsVCny7/TYld3atl+Y3u83DNDP9H71EOJPs8u
FkmrJ/D50sG5XYBNo+5D3zstCdsjNcTQVGcIT2+7PwKBgQD8JkiWTnTsVZy29/jH
9qzi/SCRku08uV6eWqhv5qogl1NTXwjx1jsze9VfVQ7lHZlAgoNurbVoObcJwYOM
xhrKHjcRuDTCC93PguTyhpvaZOe8UJbCiPtg4RhYoXFyyU3K8JDFwc6ZCv7E8/e4
iImwjBg7IxYaGGmSaelY+Fi9JwKBgQDgPgAWeYZzOrm1kDR6Qhs7tYvakEyeu8CT
JCe9H1E8LknuUAoyqEn+moAsH7aIYntfj77Qo7l3X/GrMYqJ8grohs8teDOBmMmz
sEQHIFrKGtZ1Pm+NnXUfq4Owh6GHWGvb/sIUpXoCY7BrD+d2iei7hCHjgfs4/d++
kn5RJt1C/wKBgEBkBmVb47/2nO6cpItsEvpkaczDGJJJREBsJldtMETiYAUKX95i
NvwOw450yjj4NgqjSa0Z7xmOo496O33XmT/EN4vu3oovPZWgd5b3iRVcb1FHwzgq
gwdadD0t/Sqy/Yq1pELcG0Y56JWjN7+IHqFXJVj0vNAtK8iYA18VDJRBAoGBALad
Zz7mSrruWSxmOoZR7ZGroDAnEW63YfWyHPakWWiUHbsIzbVBXbkNI1JLpT/eS7Cg
BHouyyxPIyUSXEtIpN+GYZQa7n8c6S3/XvcavzUVtA6ZAQmn8CkRaVZKrh3lwTjQ
eEeOFxV5D8OwmQPs/W4wBdUcFnXsMdklvd7ispALAoGBAMOaadXN6px0nrT/Z2RN
W4XRyJuS6XfMMj212YhKU3+4rmaOz4EgKAz89xjMEWlqZ22If/bHrUJay5S2SUtS
n9p/M2lJuW8n+xDrulJM4SNBI8j70wYPa/cWRaAkykr7405AW0+Ngej0x0+faXXS
RgWLbPX8vDI8vNihPxaaoBQX
-----END PRIVATE KEY-----`;

/** The matching public key the demo API verifies RS256 tokens with. */
export const DEMO_RSA_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3N6Q3zwKEd733Sho13q1
k54lZPnijPqH3Q+Itm/HS8+/TuYs8b3yJ/G6+hco4fOLc0+rKV7vCaI/vkBeMZN8
Crvf5RNMdLhhrjBwubFRxCst8mEklaqg6eVLyBJg76HZQfhxPdvV8N62kejrPbM2
etpXlyFOgUyRpLGxFCXSU+5sjMpT3a9JjjjZ6x6Xlm1D31Aa5CvVvhJQn/E2etFi
bKQgcyNhuuLyrVtDXM3KfGZCHPrCJBro0qMXLWNb8L0MBIN8dlrinfBYJTxDdPwQ
vYeYZViZyaXGpePZk/TTVv+raG0g23bm/D8iqCGtUWPG+mYfULRZFVPfvvusVdN3
2QIDAQAB
-----END PUBLIC KEY-----`;
