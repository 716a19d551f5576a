import environ

env = environ.Env()
INSTALLED_APPS = ["shop"]
DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"]["ATOMIC_REQUESTS"] = True
